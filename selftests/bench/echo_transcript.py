#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run one scripted sequence of operations on an echo device and print what
each returned, one line per operation: byte counts, a digest of data read,
errno names, ECHO_IOC_INFO fields, poll masks. Two implementations behave
alike for that sequence when their transcripts are equal.

    echo_transcript.py SEQUENCE DEVICE     (SEQUENCE: see SEQUENCES)

Exits 1 with a one-line error if the device cannot be opened.
"""
import errno
import fcntl
import hashlib
import os
import select
import struct
import sys

IO_MAX = 4096				# BPFDRV_IO_MAX
INFO_FMT = "=IIQ"			# struct echo_info


def _ioc(direction, nr, size):
	return (direction << 30) | (size << 16) | (ord("E") << 8) | nr


ECHO_IOC_INFO = _ioc(2, 1, struct.calcsize(INFO_FMT))
ECHO_IOC_CLEAR = _ioc(0, 2, 0)
UNKNOWN_IOC = _ioc(0, 9, 0)
INFO_WRONG_SIZE = _ioc(2, 1, 8)		# INFO's number, another size


class Device:
	def __init__(self, path):
		self.path = path
		self.fd = os.open(path, os.O_RDWR)

	def call(self, what, fn):
		try:
			out = fn()
		except OSError as e:
			out = errno.errorcode.get(e.errno, str(e.errno))
		print(f"{what}: {out}")

	def write(self, data):
		self.call(f"write {len(data)}", lambda: os.write(self.fd, data))

	def read(self, n):
		def do():
			data = os.read(self.fd, n)
			return f"{len(data)} {hashlib.sha1(data).hexdigest()[:12]}"
		self.call(f"read {n}", do)

	def info(self):
		def do():
			buf = fcntl.ioctl(self.fd, ECHO_IOC_INFO, bytes(16))
			stored, cap, total = struct.unpack(INFO_FMT, buf)
			return f"stored {stored} capacity {cap} total {total}"
		self.call("info", do)

	def clear(self):
		self.call("clear", lambda: fcntl.ioctl(self.fd, ECHO_IOC_CLEAR))

	def poll(self):
		p = select.poll()
		p.register(self.fd, select.POLLIN | select.POLLOUT)
		self.call("poll", lambda: sorted(m for _, m in p.poll(0)))


def pattern(i, n=IO_MAX):
	return bytes((i + k) & 0xff for k in range(n))


def seq_small(d):
	d.clear()
	d.write(b"hello")
	d.write(b", world")
	d.info()
	d.read(3)
	d.read(100)
	d.read(100)
	d.info()


def seq_wrap(d):
	d.clear()
	for i in range(31):
		d.write(pattern(i))
	for i in range(30):
		d.read(IO_MAX)
	for i in range(5):
		d.write(pattern(100 + i, 3000))
	for i in range(6):
		d.read(IO_MAX)
	d.info()


def seq_full(d):
	d.clear()
	for i in range(40):
		d.write(pattern(i))
	d.write(b"x")
	d.info()
	d.read(1)
	d.write(b"0123456789")
	d.info()


def seq_large(d):
	d.clear()
	d.write(pattern(7, 10000))
	d.read(10000)
	d.read(10000)
	d.write(b"")
	d.read(0)


def seq_ioctl(d):
	d.clear()
	d.write(b"abc")
	d.info()
	d.call("info to NULL", lambda: fcntl.ioctl(d.fd, ECHO_IOC_INFO, 0))
	d.call("unknown ioctl", lambda: fcntl.ioctl(d.fd, UNKNOWN_IOC))
	d.call("INFO number, wrong size",
	       lambda: fcntl.ioctl(d.fd, INFO_WRONG_SIZE, bytes(8)))
	d.clear()
	d.info()


def seq_poll(d):
	d.clear()
	d.poll()
	d.write(b"p")
	d.poll()
	for i in range(32):
		d.write(pattern(i))
	d.poll()
	d.clear()


def seq_shared(d):
	d.clear()
	other = Device(d.path)
	d.write(b"from the first file")
	other.read(100)
	other.write(b"from the second")
	d.read(100)
	os.close(other.fd)


SEQUENCES = {
	"small": seq_small, "wrap": seq_wrap, "full": seq_full,
	"large": seq_large, "ioctl": seq_ioctl, "poll": seq_poll,
	"shared": seq_shared,
}


def main():
	if len(sys.argv) != 3 or sys.argv[1] not in SEQUENCES:
		sys.exit("usage: echo_transcript.py " + "|".join(SEQUENCES) +
			 " DEVICE")
	try:
		dev = Device(sys.argv[2])
	except OSError as e:
		sys.exit(f"echo_transcript: {sys.argv[2]}: {e.strerror}")
	SEQUENCES[sys.argv[1]](dev)


if __name__ == "__main__":
	main()
