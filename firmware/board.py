"""Pin map of a seat node (Raspberry Pi Pico / any RP2040 board). Plain constants, no imports.

Buttons switch to GND and use the internal pull-ups; the OLED is an SSD1306
128x64 on I2C0. Change the numbers here if your board is wired differently.
"""

# GPIO numbers of the four buttons, in protocol order: ◀ ▶ ● ✕
BUTTON_PINS = (10, 11, 12, 13)

I2C_ID = 0
I2C_SDA = 4  # GP4, Pico pin 6
I2C_SCL = 5  # GP5, Pico pin 7
I2C_FREQ = 400_000  # a whole frame takes ~23 ms at 400 kHz
OLED_ADDRESS = 0x3C

DEBOUNCE_MS = 20  # a level must hold this long to count
HOLD_MS = 800  # a press this long also sends HELD, until the host says (gpio.hold_time, 0.8 s)
