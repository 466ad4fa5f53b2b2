/* fsync and fdatasync that sleep first, then sync: a slow or stalling SD card, for
   bench/slow_fsync.py and tests/test_slow_disk.py (loaded with LD_PRELOAD).

   SLOW_SYNC_FILE names a file holding the delay in milliseconds, read at each call,
   so a running table can be slowed and sped up from outside: "20" delays every
   call, "3000!" only the next one (the file is emptied as that call begins). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void slow_down(void) {
    const char *path = getenv("SLOW_SYNC_FILE");
    if (!path) return;
    int fd = open(path, O_RDWR);
    if (fd < 0) return;
    char text[32] = {0};
    ssize_t got = read(fd, text, sizeof text - 1);
    long ms = got > 0 ? strtol(text, NULL, 10) : 0;
    if (got > 0 && strchr(text, '!')) {  /* once: the next call is quick again */
        ftruncate(fd, 0);
    }
    close(fd);
    if (ms > 0) {
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        while (nanosleep(&ts, &ts) != 0) {}
    }
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    slow_down();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    slow_down();
    return real(fd);
}
