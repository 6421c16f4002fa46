// SPDX-License-Identifier: MIT
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
	return same_side(&a->settings[0], &b->settings[0]) &&
	       same_side(&a->settings[1], &b->settings[1]) &&
	       rio_streq_or_null(a->status, b->status);
}

static void num(char *buf, size_t n, int v)
{
	if (v > 0)
		snprintf(buf, n, "%d", v);
	else
		snprintf(buf, n, "?");
}

static void row_int(const char *name, int r, int t, FILE *out)
{
	char a[32], b[32];

	num(a, sizeof(a), r);
	num(b, sizeof(b), t);
	fprintf(out, "| %s | %s | %s |\n", name, a, b);
}

static void row_str(const char *name, const char *r, const char *t, FILE *out)
{
	fprintf(out, "| %s | %s | %s |\n", name, rio_cell_str(r),
		rio_cell_str(t));
}

static void export_cell(char *buf, size_t n, const struct rio_res_fair_side *s)
{
	if (!s->export)
		snprintf(buf, n, "not among the recorded hosts' exports");
	else
		snprintf(buf, n, "%s (%s) on %s", s->export,
			 rio_cell_str(s->export_sync), rio_cell_str(s->server));
}

static void table(const struct rio_res_check *c, FILE *out)
{
	const struct rio_res_fair_side *r = &c->settings[0],
				       *t = &c->settings[1];
	char a[512], b[512];

	fprintf(out, "| setting | RDMA | TCP |\n|---|---|---|\n");
	snprintf(a, sizeof(a), "%s on %s", rio_cell_str(r->source),
		 rio_cell_str(r->mountpoint));
	snprintf(b, sizeof(b), "%s on %s", rio_cell_str(t->source),
		 rio_cell_str(t->mountpoint));
	row_str("mount", a, b, out);
	row_str("proto", r->proto, t->proto, out);
	row_str("vers", r->vers, t->vers, out);
	row_int("rsize", r->rsize, t->rsize, out);
	row_int("wsize", r->wsize, t->wsize, out);
	row_int("nconnect", r->nconnect, t->nconnect, out);
	row_int("timeo (1/10 s)", r->timeo, t->timeo, out);
	export_cell(a, sizeof(a), r);
	export_cell(b, sizeof(b), t);
	row_str("export", a, b, out);
	row_int("server's nfsd threads", r->nfsd_threads, t->nfsd_threads, out);
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
				? "the two sides differ only in the transport"
				: "FLAGGED, they differ in more than the transport (see Checks)");
	}
}
