// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "named-doc.h"

static json_object *name_of(const char *s, size_t len, int twin)
{
	char buf[2 * NAMED_DOC_NAME_MAX + 1];
	size_t i, n = 0;

	if (len > NAMED_DOC_NAME_MAX)
		len = NAMED_DOC_NAME_MAX;
	/* fio's name for its sum over client hosts is the one name that means
	 * something to rdmaio: the twin keeps it. */
	if (!twin || (len == 11 && !memcmp(s, "All clients", 11)))
		return json_object_new_string_len(s, (int)len);
	for (i = 0; i < len; i++) {
		unsigned char b = (unsigned char)s[i];

		if ((b >= '0' && b <= '9') || strchr("- ()", b)) {
			buf[n++] = (char)b;
		} else {
			buf[n++] = (char)('g' + (b >> 4));
			buf[n++] = (char)('g' + (b & 15));
		}
	}
	return json_object_new_string_len(buf, (int)n);
}

static json_object *side(json_object *jobname, double bw)
{
	json_object *s = json_object_new_object(),
		    *c = json_object_new_object();

	json_object_object_add(s, "jobname", jobname);
	json_object_object_add(s, "bw_bytes", json_object_new_double(bw));
	json_object_object_add(s, "iops", json_object_new_double(bw / 4096));
	json_object_object_add(c, "p50", json_object_new_double(1000));
	json_object_object_add(c, "p99", json_object_new_double(5000));
	json_object_object_add(c, "p99_9", json_object_new_double(9000));
	json_object_object_add(s, "clat_ns", c);
	json_object_object_add(s, "fio_cpu_per_gib_s",
			       json_object_new_double(0.5));
	return s;
}

/* fio's json+ entry of one job: its read side's latency bins. */
static json_object *fio_job(json_object *jobname)
{
	json_object *j = json_object_new_object(),
		    *r = json_object_new_object(),
		    *c = json_object_new_object(),
		    *b = json_object_new_object();

	json_object_object_add(b, "1000", json_object_new_int(5));
	json_object_object_add(b, "4000", json_object_new_int(3));
	json_object_object_add(c, "bins", b);
	json_object_object_add(r, "clat_ns", c);
	json_object_object_add(r, "bw_bytes", json_object_new_double(1e6));
	json_object_object_add(j, "jobname", jobname);
	json_object_object_add(j, "read", r);
	return j;
}

static json_object *pair(json_object **n)
{
	json_object *p = json_object_new_object(),
		    *hc = json_object_new_array(),
		    *h = json_object_new_object();

	json_object_object_add(p, "workload", json_object_get(n[0]));
	json_object_object_add(p, "host", json_object_get(n[1]));
	json_object_object_add(p, "kind", json_object_new_string("bandwidth"));
	json_object_object_add(p, "direction", json_object_new_string("read"));
	json_object_object_add(p, "tcp_direction",
			       json_object_new_string("read"));
	json_object_object_add(p, "rdma", side(json_object_get(n[2]), 2e6));
	json_object_object_add(p, "tcp", side(json_object_get(n[3]), 1e6));
	json_object_object_add(p, "verdict", json_object_get(n[5]));
	json_object_object_add(h, "host", json_object_get(n[4]));
	json_object_object_add(h, "rdma_s", json_object_new_double(1));
	json_object_object_add(h, "tcp_s", json_object_new_double(2));
	json_object_array_add(hc, h);
	json_object_object_add(p, "host_cpu_per_gib", hc);
	return p;
}

/* Four jobs named PREFIX-SIZE: a message-size sweep. */
static void sweep(json_object *results, json_object *prefix)
{
	static const int sizes[] = { 4096, 8192, 16384, 32768 };
	json_object *r, *w;
	char name[2 * NAMED_DOC_NAME_MAX + 16];
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "%s-%d",
			 json_object_get_string(prefix), sizes[i]);
		r = json_object_new_object();
		w = json_object_new_object();
		json_object_object_add(w, "bw_bytes",
				       json_object_new_double(1e6 * (i + 1)));
		json_object_object_add(r, "jobname",
				       json_object_new_string(name));
		json_object_object_add(r, "host", json_object_get(prefix));
		json_object_object_add(r, "role",
				       json_object_new_string("client"));
		json_object_object_add(r, "write", w);
		json_object_array_add(results, r);
	}
}

json_object *named_doc_new(const uint8_t *data, size_t size, int twin)
{
	json_object *doc = json_object_new_object(), *n[NAMED_DOC_NAMES];
	json_object *cs = json_object_new_array(),
		    *rs = json_object_new_array();
	json_object *fio = json_object_new_object(), *out, *jobs, *host;
	const char *s = (const char *)data + (size > 0),
		   *end = (const char *)data + size, *z;
	int i, paired = size > 0 && (data[0] & 1);

	for (i = 0; i < NAMED_DOC_NAMES; i++) {
		z = s < end ? memchr(s, '\0', end - s) : NULL;
		if (!z)
			z = end;
		n[i] = name_of(s < end ? s : "", s < end ? (size_t)(z - s) : 0,
			       twin);
		s = z < end ? z + 1 : end;
	}
	if (paired)
		json_object_array_add(cs, pair(n));
	sweep(rs, n[2]);
	out = json_object_new_object();
	jobs = json_object_new_array();
	json_object_array_add(jobs, fio_job(json_object_get(n[2])));
	json_object_array_add(jobs, fio_job(json_object_get(n[3])));
	json_object_object_add(out, "fio version",
			       json_object_new_string("fio-3.33"));
	json_object_object_add(out, "jobs", jobs);
	json_object_object_add(fio, "output", out);
	host = json_object_new_object();
	json_object_object_add(host, "hostname", json_object_get(n[1]));
	json_object_object_add(doc, "host", host);
	json_object_object_add(doc, "fio", fio);
	json_object_object_add(doc, "comparisons", cs);
	json_object_object_add(doc, "results", rs);
	for (i = 0; i < NAMED_DOC_NAMES; i++)
		json_object_put(n[i]);
	return doc;
}
