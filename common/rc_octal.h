/* SPDX-License-Identifier: MIT */
#ifndef RC_OCTAL_H
#define RC_OCTAL_H

/*
 * The byte of a "\ooo" escape whose digits start at p (just after the
 * backslash), as exports(5) and /proc/mounts write spaces and other specials
 * in paths; -1 when p does not start three octal digits of one byte.
 */
static inline int rc_octal_byte(const char *p)
{
	if (p[0] < '0' || p[0] > '3' || p[1] < '0' || p[1] > '7' ||
	    p[2] < '0' || p[2] > '7')
		return -1;
	return (p[0] - '0') * 64 + (p[1] - '0') * 8 + (p[2] - '0');
}

#endif
