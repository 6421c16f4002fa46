// SPDX-License-Identifier: MIT
/* exports(5) syntax: validation, escaping and parsing. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "rc_octal.h"
#include "rc_log.h"

static void copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

int nr_export_escape(const char *path, char *out, size_t len)
{
	const unsigned char *p = (const unsigned char *)path;
	size_t o = 0;

	for (; *p; p++) {
		int esc = *p <= ' ' || *p >= 0x7f || *p == '\\' || *p == '"' ||
			  *p == '#' || *p == '(' || *p == ')';

		if (o + (esc ? 4 : 1) >= len)
			return -ENOSPC;
		if (esc)
			o += snprintf(out + o, len - o, "\\%03o", *p);
		else
			out[o++] = *p;
	}
	out[o] = '\0';
	return 0;
}

int nr_export_format(const struct rc_export *e, char *buf, size_t len)
{
	char esc[sizeof(e->path) * 4];
	int n;

	if (nr_export_escape(e->path, esc, sizeof(esc)))
		return -ENOSPC;
	n = snprintf(buf, len, "%s %s(%s)\n", esc, e->client, e->options);
	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}

/* Digits only (no sign, space or '+': strtol would take them), at most max
 * and, unless it is 0, without a leading zero (nfs-utils reads fsid= in base
 * 0, so "010" would be 8). */
static int strict_uint(const char *s, unsigned long max)
{
	unsigned long v = 0;
	const char *p;

	if (!*s || (s[0] == '0' && s[1]))
		return 0;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > max)
			return 0;
	}
	return 1;
}

static int bad_client(const char *spec, const char *why)
{
	rc_diag("give a host name, an IPv4 or IPv6 address or CIDR "
		"(198.18.0.0/24, fd18::/64), a wildcard (*.lab), @netgroup, "
		"or '*' for everyone",
		"client spec '%s' is not valid: %s", spec, why);
	return -EINVAL;
}

/* Bytes exportfs would read as something else than part of a name: blanks,
 * quotes, escapes, comments, the option list's own punctuation. */
static int special_byte(unsigned char c)
{
	return c <= ' ' || c >= 0x7f || strchr("(),\"#\\'", c);
}

static int check_host_name(const char *spec, const char *name)
{
	const char *p;

	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(".-_*?", *p))
			return bad_client(spec,
					  "a host name has only letters, "
					  "digits, '.', '-', '_', '*' and '?'");
	return 0;
}

int nr_export_check_client(const char *spec)
{
	char addr[NR_EXPORT_CLIENT_MAX + 1], *slash;
	unsigned char bin[16];
	const char *p;

	if (!spec[0])
		return bad_client(spec, "it is empty");
	if (!strcmp(spec, "*"))
		return 0;
	if (strlen(spec) > NR_EXPORT_CLIENT_MAX)
		return bad_client(spec, "it is longer than 255 bytes");
	for (p = spec; *p; p++)
		if (special_byte((unsigned char)*p))
			return bad_client(spec,
					  "it contains a blank, a control "
					  "character or one of ( ) , \" ' "
					  "# \\");
	/* exports(5) reads "-opts" as the line's default options. */
	if (spec[0] == '-')
		return bad_client(spec, "it starts with '-', which exports(5) "
					"reads as default options");
	if (spec[0] == '@')
		return spec[1] ? check_host_name(spec, spec + 1)
			       : bad_client(spec, "the netgroup is empty");
	copy(addr, sizeof(addr), spec);
	slash = strchr(addr, '/');
	if (slash)
		*slash++ = '\0';
	if (strchr(addr, ':')) {
		if (inet_pton(AF_INET6, addr, bin) != 1)
			return bad_client(spec, "not an IPv6 address");
		if (slash && !strict_uint(slash, 128))
			return bad_client(spec, "the IPv6 prefix is not 0-128");
		return 0;
	}
	if (strspn(addr, "0123456789.") == strlen(addr)) {
		if (inet_pton(AF_INET, addr, bin) != 1)
			return bad_client(spec, "not an IPv4 address");
		if (slash && !strict_uint(slash, 32) &&
		    inet_pton(AF_INET, slash, bin) != 1)
			return bad_client(spec, "the prefix is not 0-32 or a "
						"dotted netmask");
		return 0;
	}
	if (slash)
		return bad_client(spec, "a host name cannot have a /prefix");
	return check_host_name(spec, addr);
}

/* exports(5) of nfs-utils 2.6: flags, and options that take a value. mp and
 * mountpoint are both. */
static const char *const flags[] = { "secure",
				     "insecure",
				     "rw",
				     "ro",
				     "async",
				     "sync",
				     "wdelay",
				     "no_wdelay",
				     "hide",
				     "nohide",
				     "crossmnt",
				     "subtree_check",
				     "no_subtree_check",
				     "insecure_locks",
				     "no_auth_nlm",
				     "secure_locks",
				     "auth_nlm",
				     "root_squash",
				     "no_root_squash",
				     "all_squash",
				     "no_all_squash",
				     "no_acl",
				     "acl",
				     "mp",
				     "mountpoint",
				     "pnfs",
				     "no_pnfs",
				     "security_label",
				     "nordirplus",
				     NULL };
static const char *const valued[] = { "mountpoint", "mp",	"fsid",
				      "refer",	    "replicas", "anonuid",
				      "anongid",    "sec",	NULL };

static int in_list(const char *const *list, const char *s, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && !strncmp(*list, s, n))
			return 1;
	return 0;
}

static int bad_option(const char *opt, const char *why)
{
	rc_diag("use options from exports(5), e.g. rw,sync,no_subtree_check",
		"export option '%s': %s", opt, why);
	return -EINVAL;
}

/* An absolute path of n bytes, without '//' or a '.' or '..' component. */
static int plain_path(const char *p, size_t n)
{
	size_t i, c;

	if (n == 0 || p[0] != '/')
		return 0;
	for (i = 0; i < n; i += c) {
		i++; /* the '/' */
		c = strcspn(p + i, "/");
		if (i + c > n)
			c = n - i;
		if (c == 0 && i < n)
			return 0;
		if ((c == 1 && p[i] == '.') ||
		    (c == 2 && p[i] == '.' && p[i + 1] == '.'))
			return 0;
	}
	return 1;
}

/*
 * refer= and replicas=: path@host[+host...] locations joined by ':'
 * (exports(5)). Hosts are names or IPv4 addresses: ':' separates locations,
 * so an IPv6 address cannot be written there.
 */
static int check_locations(const char *val, const char *opt)
{
	const char *p = val;

	while (*p) {
		size_t n = strcspn(p, ":"), at = strcspn(p, "@");
		const char *h;

		if (at >= n || !plain_path(p, at))
			return bad_option(opt, "each location is "
					       "/path@host[+host], locations "
					       "joined by ':'");
		for (h = p + at + 1; h < p + n; h++)
			if (!isalnum((unsigned char)*h) && !strchr(".-_+", *h))
				return bad_option(opt, "a location's host is "
						       "a name or IPv4 "
						       "address, several "
						       "joined by '+'");
		if (p[at + 1] == '+' || p[n - 1] == '@' || p[n - 1] == '+' ||
		    strstr(p, "++"))
			return bad_option(opt, "a location's host is empty");
		p += n;
		if (*p == ':' && !*++p)
			return bad_option(opt, "the list ends with ':'");
	}
	return 0;
}

static int check_sec(const char *val, const char *opt)
{
	static const char *const flavors[] = { "sys",  "krb5", "krb5i", "krb5p",
					       "none", "null", "unix",	NULL };
	const char *p = val;

	while (*p) {
		size_t n = strcspn(p, ":");

		if (!in_list(flavors, p, n))
			return bad_option(opt, "unknown security flavor");
		p += n;
		if (*p == ':' && !*++p)
			return bad_option(opt, "the list ends with ':'");
	}
	return 0;
}

/* A UUID as nfs-utils takes it: 32 hex digits, '-' anywhere between. */
static int uuid_like(const char *s)
{
	int digits = 0;

	for (; *s; s++) {
		if (isxdigit((unsigned char)*s))
			digits++;
		else if (*s != '-')
			return 0;
	}
	return digits == 32;
}

static int check_value(const char *name, const char *val, const char *opt)
{
	const char *p;

	if (!*val)
		return bad_option(opt, "the value is empty");
	for (p = val; *p; p++)
		if (special_byte((unsigned char)*p))
			return bad_option(opt, "a value cannot hold a blank, a "
					       "control character or one of "
					       "( ) , \" ' # \\");
	if (!strcmp(name, "anonuid") || !strcmp(name, "anongid"))
		return strict_uint(val, 4294967294UL)
			       ? 0
			       : bad_option(opt, "needs a number 0-4294967294 "
						 "(digits only)");
	if (!strcmp(name, "fsid")) {
		/* exportfs tries a number first: 32 digits are no UUID. */
		if (!strcmp(val, "root") || strict_uint(val, 4294967295UL) ||
		    (uuid_like(val) &&
		     strspn(val, "0123456789") != strlen(val)))
			return 0;
		return bad_option(opt, "needs a number (digits only, no "
				       "leading 0), 'root' or a 32-digit UUID");
	}
	if (!strcmp(name, "sec"))
		return check_sec(val, opt);
	if (!strcmp(name, "refer") || !strcmp(name, "replicas"))
		return check_locations(val, opt);
	/* mp= and mountpoint= */
	return plain_path(val, strlen(val))
		       ? 0
		       : bad_option(opt, "needs an absolute path without '//', "
					 "'.' or '..'");
}

static int check_one(char *tok, int *seen)
{
	char *eq = strchr(tok, '=');
	int ret;

	if (!*tok)
		return bad_option(tok, "an empty option (two commas, or one "
				       "at an end)");
	if (eq) {
		*eq = '\0';
		if (!in_list(valued, tok, strlen(tok))) {
			*eq = '=';
			return bad_option(tok, "unknown option, or it takes "
					       "no value");
		}
		ret = check_value(tok, eq + 1, tok);
		*eq = '=';
		return ret;
	}
	if (!in_list(flags, tok, strlen(tok)))
		return bad_option(tok, "not an exports(5) option");
	seen[0] |= !strcmp(tok, "rw");
	seen[1] |= !strcmp(tok, "ro");
	seen[2] |= !strcmp(tok, "sync");
	seen[3] |= !strcmp(tok, "async");
	return 0;
}

int nr_export_check_options(const char *list)
{
	char buf[RC_EXPORT_TOKEN_MAX + 1], *tok, *next;
	int seen[4] = { 0 }, ret;

	if (strlen(list) > RC_EXPORT_TOKEN_MAX)
		return bad_option(list, "the list is longer than exportfs "
					"reads (511 bytes with the client)");
	copy(buf, sizeof(buf), list);
	if (!buf[0])
		return 0;
	for (tok = buf; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		ret = check_one(tok, seen);
		if (ret)
			return ret;
	}
	if (seen[0] && seen[1])
		return bad_option(list, "both rw and ro");
	if (seen[2] && seen[3])
		return bad_option(list, "both sync and async");
	return 0;
}

int nr_export_check_entry(const char *path, const char *client,
			  const char *options)
{
	size_t n = strlen(path);

	/* exportfs decodes "\ooo" in the bytes it has already decoded, so a
	 * backslash followed by digits would be read as another byte. */
	if (strchr(path, '\\')) {
		rc_diag("rename the folder, or export one above it",
			"export path '%.200s' has a backslash, which exportfs "
			"cannot read back unchanged",
			path);
		return -EINVAL;
	}

	if (n > RC_EXPORT_PATH_MAX) {
		rc_diag("export a shorter path (a bind mount of it, for "
			"example)",
			"export path '%.40s...' is %zu bytes: exportfs reads "
			"paths of at most %d",
			path, n, RC_EXPORT_PATH_MAX);
		return -ENAMETOOLONG;
	}
	/* exportfs reads CLIENT(OPTIONS) as one token of at most 511 bytes
	 * and drops a longer one with the rest of the line. */
	if (strlen(client) + strlen(options) + 2 > RC_EXPORT_TOKEN_MAX) {
		rc_diag("use fewer options, or a CIDR instead of a long name",
			"export %s to %s: '%s(%s)' is longer than the %d bytes "
			"exportfs reads",
			path, client, client, options, RC_EXPORT_TOKEN_MAX);
		return -E2BIG;
	}
	return 0;
}
