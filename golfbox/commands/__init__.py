"""The command line's subcommands, one module each: ``add_arguments(parser)`` and
``run(args) -> int``. Only this package and golfbox.cli know about the command line;
the layers below (engine, bots, render, hal, table) never import it."""

import os
import sys


class UsageError(Exception):
    """Bad input from the command line: reported on one line, exit status 2."""


class NotNow(Exception):
    """A failure that may pass by itself (a full disk): reported on one line, exit
    status 1, which systemd restarts (it does not restart exit status 2)."""


def is_terminal(stream) -> bool:
    """True if ``stream`` is a terminal. One closed before the start (``<&-``, ``2>&-``)
    is None in sys, and is no terminal."""
    return stream is not None and stream.isatty()


def output(text: str) -> None:
    """Print a command's result on stdout, flushed: a stdout that cannot take it (a
    full disk under ``> results.txt``) is one line and exit status 1, not a traceback.
    A reader gone (``| head``) is left to golfbox.cli, which ends quietly."""
    if sys.stdout is None:  # closed before the start (>&-): print() writes nowhere
        raise NotNow("cannot write the output: stdout is closed")
    try:
        print(text, flush=True)
    except BrokenPipeError:
        raise
    except OSError as exc:
        # What print() could not write stays in stdout's buffer, and the interpreter's
        # last flush would fail on it again (from Python 3.14: a second message and exit
        # status 120): it is lost anyway.
        stdout_to_devnull()
        raise NotNow(f"cannot write the output: {exc.strerror or exc}") from None


def stdout_to_devnull() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again.
    A stdout with no descriptor (an embedding program's stream), or no /dev/null, is
    left as it is: this runs inside another error's handler, which must still say its
    line. A descriptor 1 closed under Python is /dev/null's own, and stays open."""
    try:
        fd = sys.stdout.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)  # none in a bare chroot
    except (AttributeError, ValueError, OSError):  # io.UnsupportedOperation is both
        return
    try:
        os.dup2(devnull, fd)
    finally:
        if devnull != fd:
            os.close(devnull)


def config_usage_error(path, exc: Exception) -> UsageError:
    """A config that cannot be used, as one line naming its file once: the message
    shows the path escaped (configfile.one_line), so it is looked for escaped."""
    from golfbox.configfile import one_line

    message, shown = str(exc), one_line(path)
    return UsageError(message if shown in message else f"{shown}: {message}")
