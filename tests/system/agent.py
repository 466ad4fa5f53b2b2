#!/usr/bin/python3
"""The system test's agent inside the VM: runs the host's shell commands.

It talks over the virtio-serial port named org.golfbox.agent, one JSON object
a line each way. On start it says hello with the boot id (so the host sees a
reset). Each request {"id", "sh", "timeout"} gets {"id", "rc", "out", "err",
"mono"}: the command's exit status and output, and CLOCK_MONOTONIC (seconds
since boot, the clock of systemd's *TimestampMonotonic) when it ended.
Python's standard library only: it is installed in the image, not the venv.
"""

import glob
import json
import os
import subprocess
import time

PORT_NAME = "org.golfbox.agent"


def find_port():
    while True:
        for name_file in glob.glob("/sys/class/virtio-ports/*/name"):
            with open(name_file) as f:
                if f.read().strip() == PORT_NAME:
                    return "/dev/" + name_file.split("/")[-2]
        time.sleep(0.1)


def main():
    path = find_port()
    while not os.path.exists(path):
        time.sleep(0.05)
    port = open(path, "r+b", buffering=0)

    def send(obj):
        # One write() on the port may take only part of a long reply (a journal dump): loop.
        data = memoryview((json.dumps(obj) + "\n").encode())
        while data:
            data = data[port.write(data):]

    with open("/proc/sys/kernel/random/boot_id") as f:
        boot_id = f.read().strip()
    send({"hello": boot_id, "mono": time.monotonic()})
    buffer = b""
    while True:
        chunk = port.read(65536)
        if not chunk:  # the host is not connected: look again shortly
            time.sleep(0.1)
            continue
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            try:
                request = json.loads(line)
            except ValueError:
                continue  # half a line from before a reset
            if "ping" in request:
                send({"id": request["id"], "hello": boot_id, "mono": time.monotonic()})
                continue
            try:
                done = subprocess.run(["/bin/bash", "-c", request["sh"]], capture_output=True,
                                      timeout=request.get("timeout", 120), stdin=subprocess.DEVNULL)
                reply = {"rc": done.returncode, "out": done.stdout.decode(errors="replace"),
                         "err": done.stderr.decode(errors="replace")}
            except subprocess.TimeoutExpired as exc:
                reply = {"rc": -1, "out": (exc.stdout or b"").decode(errors="replace"),
                         "err": f"timed out after {exc.timeout} s"}
            send(dict(reply, id=request["id"], mono=time.monotonic()))


if __name__ == "__main__":
    main()
