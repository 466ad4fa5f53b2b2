"""One QEMU/KVM virtual machine for the system test, driven from the host.

The VM boots the cached image's kernel directly, with no network (-nic none),
its root disk a throw-away qcow2 overlay over the cached image, and a
read-only second disk (/dev/vdb) holding a tar of what is copied in. The
host talks to it over three unix sockets in the work directory:

* agent.sock: a virtio-serial port to tests/system/agent.py in the guest,
  which runs shell commands (one JSON object a line each way);
* qmp.sock: the QEMU monitor (QMP): hard resets, USB plug and unplug;
* the serial console goes to console.log (shown when a check fails).
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import socket
import subprocess
import threading
import time
from pathlib import Path


def accelerator() -> str:
    """kvm, or tcg (QEMU's emulator) where KVM cannot boot a stock kernel.

    GOLFBOX_SYSTEM_TEST_ACCEL=kvm|tcg overrides (or QEMU's own -accel value, e.g.
    tcg,thread=multi). KVM provided by kvm_pvm (the
    Pagetable-based VM used for nested guests on some clouds, this development
    machine's) runs only guest kernels built for PVM: Debian's kernel hangs
    right after its real-mode setup there, so TCG is used.
    """
    forced = os.environ.get("GOLFBOX_SYSTEM_TEST_ACCEL")
    if forced:
        return forced
    if not os.access("/dev/kvm", os.R_OK | os.W_OK) or Path("/sys/module/kvm_pvm").exists():
        return "tcg"
    return "kvm"


def accelerator_args() -> list[str]:
    accel = accelerator()
    if accel == "kvm":
        # -arch-capabilities: some nested KVMs refuse to set that MSR
        return ["-accel", "kvm", "-cpu", "host,-arch-capabilities"]
    # One host thread for both vCPUs: under multi-threaded TCG two whole runs each lost
    # a power cut's reboot in the guest's kernel, before any of golfbox ran (an int3
    # Oops in sched_clock_cpu; RCU stalls, CPU 1's timer never waking), after 8 and 3
    # good resets; thread=single then came back from 10 of 10 (README, System test).
    return ["-accel", accel if "," in accel else "tcg,thread=single", "-cpu", "max"]


class VMError(RuntimeError):
    """Something the test asked of the VM did not happen; the message says what."""


class Result:
    def __init__(self, reply: dict):
        self.rc = reply["rc"]
        self.out = reply["out"]
        self.err = reply["err"]
        self.mono = reply["mono"]  # guest CLOCK_MONOTONIC when the command ended

    def __repr__(self) -> str:
        return f"Result(rc={self.rc}, out={self.out[-2000:]!r}, err={self.err[-2000:]!r})"


class VM:
    def __init__(self, image_dir: Path, workdir: Path, payload: Path, *, memory_mb: int = 1024,
                 extra_args: tuple[str, ...] = ()):
        self.workdir = workdir
        self.console = workdir / "console.log"
        overlay = workdir / "root.qcow2"
        subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b",
                        str(image_dir / "root.img"), str(overlay)], check=True)
        self.command = [
            "qemu-system-x86_64", "-machine", "q35", *accelerator_args(), "-smp", "2",
            "-m", str(memory_mb), "-nic", "none", "-display", "none", "-no-user-config",
            "-kernel", str(image_dir / "vmlinuz"), "-initrd", str(image_dir / "initrd.img"),
            "-append", "root=/dev/vda rw console=ttyS0 quiet systemd.show_status=0",
            "-serial", f"file:{self.console}",
            "-drive", f"file={overlay},if=virtio,format=qcow2",
            "-drive", f"file={payload},if=virtio,format=raw,readonly=on",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=agent,path={workdir / 'agent.sock'},server=on,wait=off",
            "-device", "virtserialport,chardev=agent,name=org.golfbox.agent",
            "-qmp", f"unix:{workdir / 'qmp.sock'},server=on,wait=off",
            # A hardware RNG, as a Pi has (bcm2835-rng): without one, Python blocks at boot in
            # getrandom() until the kernel has gathered entropy, for minutes under TCG.
            "-device", "virtio-rng-pci",
            "-device", "qemu-xhci,id=xhci",
            *extra_args,
        ]
        self.process: subprocess.Popen | None = None
        self._replies: queue.Queue = queue.Queue()
        self._next_id = 0
        self._agent: socket.socket | None = None
        self._qmp: socket.socket | None = None
        self._qmp_file = None
        self.boot_id: str | None = None
        self.started_at = 0.0  # host time.monotonic() of the last power-on or reset

    # -- power ----------------------------------------------------------------

    def start(self) -> None:
        self.started_at = time.monotonic()
        self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL,
                                        stdout=open(self.workdir / "qemu.log", "wb"), stderr=subprocess.STDOUT)
        self._agent = self._connect("agent.sock")
        threading.Thread(target=self._read_agent, daemon=True, name="agent reader").start()
        self._qmp = self._connect("qmp.sock")
        self._qmp_file = self._qmp.makefile("rwb", buffering=0)
        self._qmp_read()  # greeting
        self.qmp("qmp_capabilities")

    def _connect(self, name: str) -> socket.socket:
        path = self.workdir / name
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise VMError(f"qemu exited with status {self.process.returncode}: "
                              f"{(self.workdir / 'qemu.log').read_text(errors='replace')[-2000:]}")
            try:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(str(path))
                return sock
            except OSError:
                sock.close()
                if time.monotonic() > deadline:
                    raise VMError(f"qemu did not open {path} within 30 s")
                time.sleep(0.05)

    def hard_reset(self) -> None:
        """Pull the plug and power on again: QEMU's system_reset, no shutdown in the guest."""
        self.qmp("system_reset")
        self.started_at = time.monotonic()

    def close(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            try:
                self.qmp("quit")
                self.process.wait(10)
            except Exception:
                self.process.kill()
                self.process.wait()
        for sock in (self._agent, self._qmp):
            if sock is not None:
                sock.close()
        self.process = None

    def qemu_log(self) -> str:
        try:
            return (self.workdir / "qemu.log").read_text(errors="replace")[-3000:]
        except FileNotFoundError:
            return ""

    def console_tail(self, chars: int = 3000) -> str:
        try:
            return self.console.read_text(errors="replace")[-chars:]
        except FileNotFoundError:
            return ""

    # -- the QEMU monitor ----------------------------------------------------

    def qmp(self, command: str, **arguments) -> dict:
        message = {"execute": command}
        if arguments:
            message["arguments"] = arguments
        self._qmp_file.write(json.dumps(message).encode() + b"\n")
        while True:
            reply = self._qmp_read()
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise VMError(f"QMP {command} {arguments}: {reply['error'].get('desc')}")
            # an asynchronous event (RESET, DEVICE_DELETED, ...): not our answer

    def _qmp_read(self) -> dict:
        line = self._qmp_file.readline()
        if not line:
            raise VMError("the QEMU monitor closed (qemu exited?)")
        return json.loads(line)

    # -- the agent -----------------------------------------------------------

    def _read_agent(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = self._agent.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                try:
                    self._replies.put(json.loads(line))
                except ValueError:
                    pass  # a line cut by a reset

    def wait_boot(self, timeout: float = 180, old_boot: str | None = None) -> str:
        """Wait until the agent of a boot other than ``old_boot`` answers; its boot id."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                reply = self._request({"ping": 1}, min(5, deadline - time.monotonic()))
            except VMError:
                continue
            if reply.get("hello") and reply["hello"] != old_boot:
                self.boot_id = reply["hello"]
                return self.boot_id
            time.sleep(0.2)
        raise VMError(f"the VM did not boot to its agent within {timeout:.0f} s; console:\n{self.console_tail()}")

    def _request(self, message: dict, timeout: float) -> dict:
        self._next_id += 1
        message = dict(message, id=self._next_id)
        self._agent.sendall(json.dumps(message).encode() + b"\n")
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise VMError(f"no answer from the VM's agent within {timeout:.0f} s to {message}")
            try:
                reply = self._replies.get(timeout=left)
            except queue.Empty:
                continue
            if reply.get("id") == message["id"]:
                return reply

    def sh(self, command: str, timeout: float = 60, check: bool = True) -> Result:
        """Run a shell command in the VM as root; with check, a failure raises VMError."""
        result = Result(self._request({"sh": command, "timeout": timeout}, timeout + 10))
        if check and result.rc != 0:
            raise VMError(f"in the VM, `{command}` exited {result.rc}:\n{result.out[-3000:]}{result.err[-3000:]}")
        return result

    def write_file(self, path: str, text: str, mode: str = "0644") -> None:
        # sync: a power cut soon after must not leave an empty file (ext4's delayed allocation)
        self.sh(f"install -D -m {mode} /dev/stdin {shlex.quote(path)} <<'GOLFBOX_EOF' && sync\n{text}\nGOLFBOX_EOF")
