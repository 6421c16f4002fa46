// SPDX-License-Identifier: MIT
/*
 * rdmaio's option machinery: usage texts, getopt_long's tables and the
 * refusals, all made from the subcommands' option tables.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "rc_log.h"
#include "base/streq.h"

#define SUBCMDS_MAX 8
#define OPTS_MAX 32
#define LABEL_MAX 64
#define TEXT_MAX 512

/* Every subcommand takes it; messages leave it out of what one takes. */
static const struct rio_opt help_opt = { "help", 'h', NULL };

static void sub_usage(const struct rio_subcmd *s, FILE *f)
{
	int i;

	fprintf(f, "usage: %s", s->synopsis);
	for (i = 0; i < NOTES_MAX && s->notes[i]; i++)
		fputs(s->notes[i], f);
}

/* Whether a subcommand before S has NOTE: the whole usage says it once. */
static bool note_said(const struct rio_subcmd *subs, const struct rio_subcmd *s,
		      const char *note)
{
	const struct rio_subcmd *p;
	int i;

	for (p = subs; p < s; p++)
		for (i = 0; i < NOTES_MAX && p->notes[i]; i++)
			if (p->notes[i] == note)
				return true;
	return false;
}

void rio_opt_usage(const struct rio_subcmd *subs, FILE *f)
{
	const struct rio_subcmd *s;
	int i;

	for (s = subs; s->name; s++)
		fprintf(f, "%s%s", s == subs ? "usage: " : "       ",
			s->synopsis);
	for (s = subs; s->name; s++)
		for (i = 0; i < NOTES_MAX && s->notes[i]; i++)
			if (!note_said(subs, s, s->notes[i]))
				fputs(s->notes[i], f);
}

/* Appends ITEMS to BUF as "a", "a and b", "a, b and c" (CONJ: " and "). */
static void join(char *buf, size_t len, const char *const items[], int n,
		 const char *conj)
{
	size_t used = strlen(buf);
	const char *sep;
	int i;

	for (i = 0; i < n && used < len; i++) {
		sep = i == 0 ? "" : i == n - 1 ? conj : ", ";
		used += snprintf(buf + used, len - used, "%s%s", sep, items[i]);
	}
}

/* An option as a subcommand takes it: with the group of its set. */
struct opt_ref {
	const struct rio_opt *o; /* NULL after the last */
	const char *group;
};

static bool has_letter(const struct rio_opt *o)
{
	return o->val < OPT_LONG;
}

/*
 * The options S takes, its sets' and --help, into R (OPTS_MAX + 1 long).
 * Returns how many, or -E2BIG after saying so (a bug).
 */
static int sub_opts(const struct rio_subcmd *s, struct opt_ref *r)
{
	const struct rio_opt_set *set;
	const struct rio_opt *o;
	int n = 0;

	for (set = s->sets; set < s->sets + SETS_MAX && set->opts; set++)
		for (o = set->opts; o->name && n < OPTS_MAX; o++)
			r[n++] = (struct opt_ref){ o, set->group };
	if (n == OPTS_MAX) {
		rc_err("%s: more options than OPTS_MAX (%d) in tools/options.c: raise it (a bug)",
		       s->name, OPTS_MAX);
		return -E2BIG;
	}
	r[n++] = (struct opt_ref){ &help_opt, NULL };
	r[n] = (struct opt_ref){ NULL, NULL };
	return n;
}

/* "-o FILE", "--plot FILE", "--help": an option as messages name it. */
static void opt_label(const struct rio_opt *o, char *buf, size_t len)
{
	int n = has_letter(o) ? snprintf(buf, len, "-%c", o->val)
			      : snprintf(buf, len, "--%s", o->name);

	if (o->arg && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " %s", o->arg);
}

static const struct opt_ref *find_val(const struct opt_ref *r, int val)
{
	for (; r->o; r++)
		if (r->o->val == val)
			return r;
	return NULL;
}

/*
 * The options of R that --NAME can mean, by getopt_long's rule: the one of
 * that name, else each whose name begins with NAME. Returns how many; the
 * first MAX of them go to M.
 */
static int find_long(const struct opt_ref *r, const char *name,
		     const struct opt_ref **m, int max)
{
	size_t len = strlen(name);
	int n = 0;

	for (; r->o; r++) {
		if (strncmp(r->o->name, name, len))
			continue;
		if (!r->o->name[len]) {
			m[0] = r;
			return 1;
		}
		if (n < max)
			m[n] = r;
		n++;
	}
	return n;
}

/* The option of R that NAME ("-o", "--noise", "--nois") is, or NULL. */
static const struct opt_ref *find_opt(const struct opt_ref *r, const char *name)
{
	const struct opt_ref *m;

	if (name[1] != '-') {
		m = find_val(r, name[1]);
		return m && has_letter(m->o) ? m : NULL;
	}
	return find_long(r, name + 2, &m, 1) == 1 ? m : NULL;
}

/* What R takes, as "--plot FILE" or "-o FILE and --fio PATH". */
static void takes_text(const struct opt_ref *r, char *buf, size_t len)
{
	char labels[OPTS_MAX][LABEL_MAX];
	const char *items[OPTS_MAX];
	int i, n = 0;

	for (i = 0; r[i].o; i++) {
		if (r[i].o == &help_opt)
			continue;
		if (r[i].group) {
			/* A group is named once, where its first option is. */
			if (!i || !rio_streq(r[i - 1].group, r[i].group))
				items[n++] = r[i].group;
			continue;
		}
		opt_label(r[i].o, labels[n], LABEL_MAX);
		items[n] = labels[n];
		n++;
	}
	buf[0] = '\0';
	if (n)
		join(buf, len, items, n, " and ");
	else
		snprintf(buf, len, "no options");
}

/*
 * Which subcommands but SUB take the option NAME, as "LINK options belong
 * to run and check" or "-o belongs to run and env". False when none does.
 */
static bool owners_text(const struct rio_subcmd *subs,
			const struct rio_subcmd *sub, const char *name,
			char *buf, size_t len)
{
	const char *names[SUBCMDS_MAX], *group = NULL, *full = NULL;
	struct opt_ref r[OPTS_MAX + 1];
	const struct opt_ref *f;
	const struct rio_subcmd *s;
	int n = 0;

	for (s = subs; s->name && n < SUBCMDS_MAX; s++) {
		if (s == sub || sub_opts(s, r) < 0 || !(f = find_opt(r, name)))
			continue;
		if (!n) {
			group = f->group;
			full = f->o->name;
		}
		names[n++] = s->name;
	}
	if (!n)
		return false;
	if (group)
		snprintf(buf, len, "%s belong to ", group);
	else if (name[1] != '-')
		snprintf(buf, len, "%s belongs to ", name);
	else
		snprintf(buf, len, "--%s belongs to ", full);
	join(buf, len, names, n, " and ");
	return true;
}

/* An option SUB (taking R) does not take: another subcommand's, or none's. */
static void refuse_foreign(const struct rio_subcmd *subs,
			   const struct rio_subcmd *sub,
			   const struct opt_ref *r, const char *name)
{
	char takes[TEXT_MAX], owners[TEXT_MAX], which[TEXT_MAX] = "";
	char labels[OPTS_MAX][LABEL_MAX];
	const struct opt_ref *m[OPTS_MAX];
	const char *items[OPTS_MAX];
	int i, n = 0;

	if (name[1] == '-')
		n = find_long(r, name + 2, m, OPTS_MAX);
	if (n > 1) {
		/* getopt_long refuses an abbreviation of several options. */
		for (i = 0; i < n && i < OPTS_MAX; i++) {
			snprintf(labels[i], LABEL_MAX, "--%s", m[i]->o->name);
			items[i] = labels[i];
		}
		join(which, sizeof(which), items, i, " or ");
		rc_err("%s: %s is ambiguous (%s): spell the option out",
		       sub->name, name, which);
		return;
	}
	takes_text(r, takes, sizeof(takes));
	if (owners_text(subs, sub, name, owners, sizeof(owners)))
		rc_err("%s: %s is not an option of %s (it takes %s; %s)",
		       sub->name, name, sub->name, takes, owners);
	else
		rc_err("%s: unknown option %s (%s takes %s)", sub->name, name,
		       sub->name, takes);
}

/* Says why getopt_long returned C ('?' or ':') for ARGV[optind - 1]. */
static void refuse(const struct rio_subcmd *subs, const struct rio_subcmd *sub,
		   const struct opt_ref *r, int c, char *const argv[])
{
	const struct opt_ref *own = optopt ? find_val(r, optopt) : NULL;
	const char *arg = argv[optind - 1];
	char name[LABEL_MAX];

	if (own) {
		/* One of its own, with an argument missing or one too many. */
		opt_label(own->o, name, sizeof(name));
		if (c == ':')
			rc_err("%s: %s needs an argument (%s)", sub->name, arg,
			       name);
		else
			rc_err("%s: --%s takes no argument", sub->name,
			       own->o->name);
		return;
	}
	if (optopt)
		snprintf(name, sizeof(name), "-%c", optopt);
	else
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="),
			 arg);
	refuse_foreign(subs, sub, r, name);
}

/*
 * getopt_long's tables for R. Short options begin "-:": "-" hands operands
 * over in order, so that each job file knows the --client before it; ":"
 * tells a missing argument from an unknown option and keeps getopt_long
 * quiet, since refuse() says more.
 */
static void getopt_tables(const struct opt_ref *r, struct option *lo, char *so)
{
	*so++ = '-';
	*so++ = ':';
	for (; r->o; r++, lo++) {
		*lo = (struct option){ r->o->name,
				       r->o->arg ? required_argument
						 : no_argument,
				       NULL, r->o->val };
		if (has_letter(r->o)) {
			*so++ = (char)r->o->val;
			if (r->o->arg)
				*so++ = ':';
		}
	}
	*lo = (struct option){ NULL, 0, NULL, 0 };
	*so = '\0';
}

bool rio_opt_parse(const struct rio_subcmd *subs, const struct rio_subcmd *sub,
		   int argc, char **argv, rio_opt_take_fn take,
		   struct rio_args *a, int *status)
{
	struct opt_ref r[OPTS_MAX + 1];
	struct option lo[OPTS_MAX + 1];
	char so[2 * OPTS_MAX + 3];
	int c, ret;

	*status = 1;
	if (sub_opts(sub, r) < 0)
		return false;
	getopt_tables(r, lo, so);
	optind = 1;
	ret = 0;
	while (!ret && (c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		if (c == 'h') {
			sub_usage(sub, stdout);
			*status = 0;
			return false;
		}
		if (c == '?' || c == ':') {
			refuse(subs, sub, r, c, argv);
			sub_usage(sub, stderr);
			*status = 2;
			return false;
		}
		/* getopt_long gives a file among the options as 1 ("-" first
		 * in so), RIO_OPT_FILE. */
		ret = take(a, c, optarg);
	}
	while (!ret && optind < argc)
		ret = take(a, RIO_OPT_FILE, argv[optind++]);
	if (ret == -ENOMEM)
		rc_err("%s: out of memory reading the command line", sub->name);
	else if (ret)
		*status = 2;
	return !ret;
}

const struct rio_subcmd *rio_opt_subcmd(const struct rio_subcmd *subs,
					const char *name)
{
	const char *names[SUBCMDS_MAX];
	const struct rio_subcmd *s;
	char list[TEXT_MAX] = "";
	int n = 0;

	for (s = subs; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	for (s = subs; s->name && n < SUBCMDS_MAX; s++)
		names[n++] = s->name;
	join(list, sizeof(list), names, n, " or ");
	rc_err("unknown command '%s' (%s)", name, list);
	return NULL;
}
