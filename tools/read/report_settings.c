// SPDX-License-Identifier: MIT
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/streq.h"
#include "read/cell.h"
#include "read/report_settings.h"

static int is_fair(const struct rio_res_check *c)
{
	return c->settings && rio_streq(c->name, "fairness");
}

/* Whether two sides are the same but for the job and its depth. */
static int same_side(const struct rio_res_fair_side *a,
		     const struct rio_res_fair_side *b)
{
	return rio_streq_or_null(a->host, b->host) &&
	       rio_streq_or_null(a->source, b->source) &&
	       rio_streq_or_null(a->mountpoint, b->mountpoint) &&
	       rio_streq_or_null(a->proto, b->proto) &&
	       rio_streq_or_null(a->vers, b->vers) &&
	       rio_streq_or_null(a->server, b->server) &&
	       rio_streq_or_null(a->export, b->export) &&
	       rio_streq_or_null(a->export_sync, b->export_sync) &&
	       a->rsize == b->rsize && a->wsize == b->wsize &&
	       a->nconnect == b->nconnect && a->timeo == b->timeo &&
	       a->nfsd_threads == b->nfsd_threads;
}

static int same_table(const struct rio_res_check *a,
		      const struct rio_res_check *b)
{
	int k;

	for (k = 0; k < RIO_RES_NFAIR; k++)
		if (!a->settings[k].jobname != !b->settings[k].jobname ||
		    !same_side(&a->settings[k], &b->settings[k]))
			return 0;
	return rio_streq_or_null(a->status, b->status);
}

/* The sides a check has (RDMA first), and their columns' heads. */
struct cols {
	const struct rio_res_fair_side *v[RIO_RES_NFAIR];
	int n;
};

static const char *const heads[RIO_RES_NFAIR] = { "RDMA", "TCP",
						  "TCP nconnect" };

static void cols_of(const struct rio_res_check *c, struct cols *cs,
		    const char **head)
{
	int k;

	cs->n = 0;
	for (k = 0; k < RIO_RES_NFAIR; k++)
		if (!k || c->settings[k].jobname) {
			head[cs->n] = heads[k];
			cs->v[cs->n++] = &c->settings[k];
		}
}

static void num(char *buf, size_t n, int v)
{
	if (v > 0)
		snprintf(buf, n, "%d", v);
	else
		snprintf(buf, n, "?");
}

static int int_at(const struct rio_res_fair_side *s, size_t off)
{
	return *(const int *)((const char *)s + off);
}

static const char *str_at(const struct rio_res_fair_side *s, size_t off)
{
	return *(const char *const *)((const char *)s + off);
}

/* A row of numbers: the field at off in each side, dflt where the mount
 * table leaves it out (0: not known). */
static void row_int(const char *name, const struct cols *cs, size_t off,
		    int dflt, FILE *out)
{
	char a[32];
	int k, v;

	fprintf(out, "| %s |", name);
	for (k = 0; k < cs->n; k++) {
		v = int_at(cs->v[k], off);
		num(a, sizeof(a), v > 0 ? v : dflt);
		fprintf(out, " %s |", a);
	}
	fprintf(out, "\n");
}

/* A row of strings: the field at off in each side. */
static void row_str(const char *name, const struct cols *cs, size_t off,
		    FILE *out)
{
	int k;

	fprintf(out, "| %s |", name);
	for (k = 0; k < cs->n; k++)
		fprintf(out, " %s |", rio_cell_str(str_at(cs->v[k], off)));
	fprintf(out, "\n");
}

/* A row of what fill makes of each side. */
static void row_fn(const char *name, const struct cols *cs,
		   void (*fill)(char *, size_t,
				const struct rio_res_fair_side *),
		   FILE *out)
{
	char a[512];
	int k;

	fprintf(out, "| %s |", name);
	for (k = 0; k < cs->n; k++) {
		fill(a, sizeof(a), cs->v[k]);
		fprintf(out, " %s |", a);
	}
	fprintf(out, "\n");
}

static void mount_cell(char *buf, size_t n, const struct rio_res_fair_side *s)
{
	snprintf(buf, n, "%s on %s", rio_cell_str(s->source),
		 rio_cell_str(s->mountpoint));
}

static void export_cell(char *buf, size_t n, const struct rio_res_fair_side *s)
{
	if (!s->export)
		snprintf(buf, n, "not among the recorded hosts' exports");
	else
		snprintf(buf, n, "%s (%s) on %s", s->export,
			 rio_cell_str(s->export_sync), rio_cell_str(s->server));
}

#define SIDE(f) offsetof(struct rio_res_fair_side, f)

static void table(const struct rio_res_check *c, FILE *out)
{
	const char *head[RIO_RES_NFAIR];
	struct cols cs;
	int k;

	cols_of(c, &cs, head);
	fprintf(out, "| setting |");
	for (k = 0; k < cs.n; k++)
		fprintf(out, " %s |", head[k]);
	fprintf(out, "\n|---|");
	for (k = 0; k < cs.n; k++)
		fprintf(out, "---|");
	fprintf(out, "\n");
	row_fn("mount", &cs, mount_cell, out);
	row_str("proto", &cs, SIDE(proto), out);
	row_str("vers", &cs, SIDE(vers), out);
	row_int("rsize", &cs, SIDE(rsize), 0, out);
	row_int("wsize", &cs, SIDE(wsize), 0, out);
	/* /proc/mounts shows nconnect= only past 1 */
	row_int("nconnect", &cs, SIDE(nconnect), 1, out);
	row_int("timeo (1/10 s)", &cs, SIDE(timeo), 0, out);
	row_fn("export", &cs, export_cell, out);
	row_int("server's nfsd threads", &cs, SIDE(nfsd_threads), 0, out);
}

/* "seq-write (128 in flight), seq-read (128 in flight)": the workloads
 * that share check k's table, from k on. */
static void workloads(const struct rio_resultdoc *rd, size_t k, FILE *out)
{
	const struct rio_res_check *c, *ck = rio_resultdoc_check(rd, k);
	const char *name, *dash;
	size_t i;
	int n = 0;

	for (i = k; i < rio_resultdoc_nchecks(rd); i++) {
		c = rio_resultdoc_check(rd, i);
		if (!is_fair(c) || !same_table(c, ck))
			continue;
		name = rio_cell_str(c->settings[0].jobname);
		dash = strrchr(name, '-');
		fprintf(out, "%s%.*s", n++ ? ", " : "",
			dash ? (int)(dash - name) : (int)strlen(name), name);
		if (c->settings[0].depth > 0)
			fprintf(out, " (%d in flight)", c->settings[0].depth);
	}
}

void rio_report_settings_table(const struct rio_resultdoc *rd, FILE *out)
{
	const struct rio_res_check *c;
	size_t i, j;
	int any = 0, seen;

	for (i = 0; i < rio_resultdoc_nchecks(rd); i++) {
		c = rio_resultdoc_check(rd, i);
		if (!is_fair(c))
			continue;
		for (j = 0, seen = 0; j < i && !seen; j++)
			seen = is_fair(rio_resultdoc_check(rd, j)) &&
			       same_table(rio_resultdoc_check(rd, j), c);
		if (seen)
			continue;
		if (!any++)
			fprintf(out, "## NFS settings side by side\n\n");
		fprintf(out, "On %s: ", rio_cell_str(c->host));
		workloads(rd, i, out);
		fprintf(out, ".\n\n");
		table(c, out);
		fprintf(out, "\nFairness: %s.\n\n",
			rio_streq(c->status, "pass")
				? "the sides differ only in the transport"
				: "FLAGGED, they differ in more than the transport (see Checks)");
	}
}
