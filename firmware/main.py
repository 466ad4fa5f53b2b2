"""Boot entry of the seat node. Kept as source (MicroPython runs main.py only from
source) and tiny: everything else is precompiled .mpy, so it starts at once."""

# First, before anything else can take time: USB is already up and the host may be
# sending, and until kbd_intr(-1) runs a 0x03 byte is Ctrl-C. One that came before is
# only noted, and raised at the next jump: the if's, inside the try, so it is caught
# and tried again. (The break's jump leaves the try before it looks.)
while True:
    try:
        import micropython
        micropython.kbd_intr(-1)
        if micropython:
            break
    except KeyboardInterrupt:
        pass

import start  # noqa: E402  (firmware/start.py, precompiled)

start.boot()
