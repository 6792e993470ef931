/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP output for the selftests: unnumbered "ok - ..." lines; the
 * harness numbers them across programs and kernels.
 */
#ifndef __BPFDRV_TAP_H
#define __BPFDRV_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_failures;

__attribute__((format(printf, 2, 3)))
static int tap_check(int pass, const char *fmt, ...)
{
	va_list ap;

	printf("%sok - ", pass ? "" : "not ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!pass)
		tap_failures++;
	return pass;
}

#define ok(cond, ...) tap_check(!!(cond), __VA_ARGS__)

__attribute__((format(printf, 1, 2)))
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

#endif /* __BPFDRV_TAP_H */
