// SPDX-License-Identifier: GPL-2.0
/*
 * The packaged bpfdrv links libbpf statically and must run on Debian 12
 * (glibc 2.36) as well as 13. Built with glibc 2.38 or later, libbpf.a and
 * any code compiled with _GNU_SOURCE call the C23 variants of scanf and
 * strtoul (they also accept "0b" binary numbers), which older glibc lacks.
 * Defining them here keeps the binary off GLIBC_2.38; nothing in bpfdrv or
 * libbpf parses binary literals. This file must not define _GNU_SOURCE,
 * so that its own calls go to the classic functions.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int __isoc23_sscanf(const char *s, const char *fmt, ...);
int __isoc23_fscanf(FILE *f, const char *fmt, ...);
unsigned long __isoc23_strtoul(const char *s, char **end, int base);
unsigned long long __isoc23_strtoull(const char *s, char **end, int base);
long __isoc23_strtol(const char *s, char **end, int base);
long long __isoc23_strtoll(const char *s, char **end, int base);

int __isoc23_sscanf(const char *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsscanf(s, fmt, ap);
	va_end(ap);
	return n;
}

int __isoc23_fscanf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfscanf(f, fmt, ap);
	va_end(ap);
	return n;
}

unsigned long __isoc23_strtoul(const char *s, char **end, int base)
{
	return strtoul(s, end, base);
}

unsigned long long __isoc23_strtoull(const char *s, char **end, int base)
{
	return strtoull(s, end, base);
}

long __isoc23_strtol(const char *s, char **end, int base)
{
	return strtol(s, end, base);
}

long long __isoc23_strtoll(const char *s, char **end, int base)
{
	return strtoll(s, end, base);
}
