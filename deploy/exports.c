// SPDX-License-Identifier: MIT
/* exports(5) syntax: validation, escaping and parsing. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "octal.h"
#include "log.h"

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

static int valid_ipv4_prefix(const char *s, int max)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return 0;
	v = strtol(s, &end, 10);
	return !*end && v >= 0 && v <= max;
}

static int bad_client(const char *spec, const char *why)
{
	nr_diag("give a host name, an IPv4 or IPv6 address or CIDR "
		"(198.18.0.0/24, fd18::/64), a wildcard (*.lab), @netgroup, "
		"or '*' for everyone",
		"client spec '%s' is not valid: %s", spec, why);
	return -EINVAL;
}

int nr_export_check_client(const char *spec)
{
	char addr[256], *slash;
	unsigned char bin[16];
	const char *p;

	if (!spec[0])
		return bad_client(spec, "it is empty");
	if (!strcmp(spec, "*"))
		return 0;
	if (strlen(spec) >= sizeof(addr))
		return bad_client(spec, "it is too long");
	for (p = spec; *p; p++)
		if (isspace((unsigned char)*p) || strchr("(),\"#\\", *p))
			return bad_client(spec, "it contains a space or one of "
						"( ) , \" # \\");
	if (spec[0] == '@')
		return spec[1] ? 0 : bad_client(spec, "the netgroup is empty");
	copy(addr, sizeof(addr), spec);
	slash = strchr(addr, '/');
	if (slash)
		*slash++ = '\0';
	if (strchr(addr, ':')) {
		if (inet_pton(AF_INET6, addr, bin) != 1)
			return bad_client(spec, "not an IPv6 address");
		if (slash && !valid_ipv4_prefix(slash, 128))
			return bad_client(spec, "the IPv6 prefix is not 0-128");
		return 0;
	}
	if (strspn(addr, "0123456789.") == strlen(addr)) {
		if (inet_pton(AF_INET, addr, bin) != 1)
			return bad_client(spec, "not an IPv4 address");
		if (slash && !valid_ipv4_prefix(slash, 32) &&
		    inet_pton(AF_INET, slash, bin) != 1)
			return bad_client(spec, "the prefix is not 0-32 or a "
						"dotted netmask");
		return 0;
	}
	if (slash)
		return bad_client(spec, "a host name cannot have a /prefix");
	for (p = addr; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(".-_*?", *p))
			return bad_client(spec,
					  "a host name has only letters, "
					  "digits, '.', '-', '*' and '?'");
	return 0;
}

/* exports(5) of nfs-utils 2.6: flags, and options that take a value. */
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
	nr_diag("use options from exports(5), e.g. rw,sync,no_subtree_check",
		"export option '%s': %s", opt, why);
	return -EINVAL;
}

static int check_value(const char *name, const char *val, const char *opt)
{
	char *end;

	if (!*val)
		return bad_option(opt, "the value is empty");
	if (!strcmp(name, "anonuid") || !strcmp(name, "anongid")) {
		strtol(val, &end, 10);
		return *end ? bad_option(opt, "needs a number") : 0;
	}
	if (!strcmp(name, "fsid")) {
		if (!strcmp(val, "root"))
			return 0;
		strtoul(val, &end, 10);
		if (!*end)
			return 0;
		if (strspn(val, "0123456789abcdefABCDEF-") == strlen(val))
			return 0;
		return bad_option(opt, "needs a number, 'root' or a UUID");
	}
	if (!strcmp(name, "sec")) {
		static const char *const flavors[] = { "sys",	"krb5", "krb5i",
						       "krb5p", "none", "null",
						       "unix",	NULL };
		const char *p = val;

		while (*p) {
			size_t n = strcspn(p, ":");

			if (!in_list(flavors, p, n))
				return bad_option(opt, "unknown security "
						       "flavor");
			p += n + (p[n] == ':');
		}
	}
	return 0;
}

int nr_export_check_options(const char *list)
{
	int seen_rw = 0, seen_ro = 0, seen_sync = 0, seen_async = 0, ret;
	char buf[512], *tok, *save, *eq;

	if (strlen(list) >= sizeof(buf))
		return bad_option(list, "the list is too long");
	copy(buf, sizeof(buf), list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (eq) {
			*eq = '\0';
			if (!in_list(valued, tok, strlen(tok))) {
				*eq = '=';
				return bad_option(tok, "unknown option, or it "
						       "takes no value");
			}
			ret = check_value(tok, eq + 1, list);
			if (ret)
				return ret;
			continue;
		}
		if (!in_list(flags, tok, strlen(tok)))
			return bad_option(tok, "not an exports(5) option");
		seen_rw |= !strcmp(tok, "rw");
		seen_ro |= !strcmp(tok, "ro");
		seen_sync |= !strcmp(tok, "sync");
		seen_async |= !strcmp(tok, "async");
	}
	if (seen_rw && seen_ro)
		return bad_option(list, "both rw and ro");
	if (seen_sync && seen_async)
		return bad_option(list, "both sync and async");
	return 0;
}

/* Reads one token: quotes group, "\ooo" is an octal byte. */
static const char *get_token(const char *p, char *out, size_t len, int path)
{
	size_t o = 0;
	int quoted = 0;

	while (*p && (quoted || !isspace((unsigned char)*p))) {
		char c = *p++;

		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		if (c == '\\' && path && nr_octal_byte(p) >= 0) {
			c = (char)nr_octal_byte(p);
			p += 3;
		}
		if (o + 1 < len)
			out[o++] = c;
	}
	out[o] = '\0';
	return p;
}

int nr_export_parse_line(const char *line, struct nr_export *out, int max)
{
	char tok[1024], defopts[512] = "", *paren;
	const char *p = line;
	int n = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#')
		return 0;
	p = get_token(p, out[0].path, sizeof(out[0].path), 1);
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			break;
		p = get_token(p, tok, sizeof(tok), 0);
		if (tok[0] == '-') {
			copy(defopts, sizeof(defopts), tok + 1);
			continue;
		}
		if (n >= max)
			break;
		if (n > 0)
			memcpy(out[n].path, out[0].path, sizeof(out[n].path));
		paren = strchr(tok, '(');
		if (paren) {
			*paren = '\0';
			paren[strcspn(paren + 1, ")") + 1] = '\0';
			copy(out[n].options, sizeof(out[n].options), paren + 1);
		} else {
			copy(out[n].options, sizeof(out[n].options), defopts);
		}
		/* A path alone exports to everyone (exports(5)). */
		copy(out[n].client, sizeof(out[n].client), tok[0] ? tok : "*");
		n++;
	}
	if (n == 0 && max > 0) {
		snprintf(out[0].client, sizeof(out[0].client), "*");
		copy(out[0].options, sizeof(out[0].options), defopts);
		n = 1;
	}
	return n;
}
