# SPDX-License-Identifier: GPL-2.0
# Device system calls from threads and forked processes, for the host
# test of bpfdrv trace's syscall mode (trace-host.sh). Every call on a
# device goes through the C library's own functions (os.*, fcntl.ioctl,
# select.poll, mmap), where the LD_PRELOAD counter (devcount.c) sees them;
# the process's standard streams are regular files, never a traced device.
import fcntl
import mmap
import os
import select
import termios
import threading

N = int(os.environ.get("WORKLOAD_ROUNDS", "40"))


def writer(fd):
    for _ in range(N):
        os.write(fd, b"x")


def reader(fd):
    for _ in range(N):
        os.read(fd, 16)
        os.pread(fd, 8, 0)


def ioctls(fd, nullfd):
    buf = bytearray(64)
    for _ in range(N // 4):
        fcntl.ioctl(fd, termios.TCGETS, buf)        # a pty master: answered
        try:
            fcntl.ioctl(nullfd, termios.TCGETS, buf)  # /dev/null: ENOTTY
        except OSError:
            pass


def child(depth):
    z = os.open("/dev/zero", os.O_RDONLY)
    n = os.open("/dev/null", os.O_WRONLY)
    for _ in range(N // 2):
        os.read(z, 4)
        os.write(n, b"y")
    f = os.open("/dev/full", os.O_WRONLY)
    try:
        os.write(f, b"z")                            # ENOSPC
    except OSError:
        pass
    os.close(f)
    if depth:
        pid = os.fork()
        if pid == 0:
            child(depth - 1)
            os._exit(0)
        os.waitpid(pid, 0)
    os.close(z)
    os.close(n)


null = os.open("/dev/null", os.O_RDWR)
zero = os.open("/dev/zero", os.O_RDONLY)
ptmx = os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY)
threads = [threading.Thread(target=writer, args=(null,)) for _ in range(4)]
threads += [threading.Thread(target=reader, args=(zero,)) for _ in range(2)]
threads += [threading.Thread(target=ioctls, args=(ptmx, null)) for _ in range(2)]
for t in threads:
    t.start()
p = select.poll()
p.register(zero, select.POLLIN)
for _ in range(5):
    p.poll(0)
m = mmap.mmap(zero, 4096, mmap.MAP_PRIVATE, mmap.PROT_READ)
m.close()
kids = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        child(1)
        os._exit(0)
    kids.append(pid)
for t in threads:
    t.join()
for pid in kids:
    os.waitpid(pid, 0)
for fd in (null, zero, ptmx):
    os.close(fd)
