// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "result/cpustat.h"
#include "rc_file.h"
#include "base/jsonread.h"

double rio_cpustat_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int rio_cpustat_read(const char *root, struct rio_cpustat *s)
{
	unsigned long long v[RIO_CPU_NFIELDS];
	char path[4096], *text, *line, *save = NULL;
	int ret, i, n = 0;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/proc/stat", root);
	ret = rc_file_read(path, &text, NULL, RC_FILE_PROC_MAX);
	if (ret)
		return ret;
	s->t = rio_cpustat_now();
	ret = -EINVAL;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "cpu ", 4) &&
		    sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) == RIO_CPU_NFIELDS) {
			for (i = 0; i < RIO_CPU_NFIELDS; i++)
				s->ticks[i] = (double)v[i];
			ret = 0;
		} else if (!strncmp(line, "cpu", 3) && line[3] >= '0' &&
			   line[3] <= '9') {
			n++;
		}
	}
	free(text);
	s->ncpu = n;
	s->hz = (int)sysconf(_SC_CLK_TCK);
	return ret;
}

json_object *rio_cpustat_json(const struct rio_cpustat *s)
{
	json_object *o = json_object_new_object(), *t = json_object_new_array();
	int i;

	for (i = 0; i < RIO_CPU_NFIELDS; i++)
		json_object_array_add(
			t, json_object_new_int64((int64_t)s->ticks[i]));
	json_object_object_add(o, "schema",
			       json_object_new_string("rdmaio-cpu/1"));
	json_object_object_add(o, "t", json_object_new_double(s->t));
	json_object_object_add(o, "hz", json_object_new_int(s->hz));
	json_object_object_add(o, "ncpu", json_object_new_int(s->ncpu));
	json_object_object_add(o, "ticks", t);
	return o;
}

int rio_cpustat_parse(const char *line, struct rio_cpustat *s)
{
	json_object *o = json_tokener_parse(line), *t;
	const char *schema = rio_json_str(o, "schema");
	int i, ret = -EINVAL;

	memset(s, 0, sizeof(*s));
	t = rio_json_get(o, "ticks");
	if (!schema || strcmp(schema, "rdmaio-cpu/1") ||
	    !json_object_is_type(t, json_type_array) ||
	    rio_json_len(t) != RIO_CPU_NFIELDS)
		goto out;
	s->t = rio_json_num(o, "t", NAN);
	s->hz = (int)rio_json_num(o, "hz", 0);
	s->ncpu = (int)rio_json_num(o, "ncpu", 0);
	if (!isfinite(s->t) || s->hz <= 0 || s->ncpu <= 0)
		goto out;
	for (i = 0; i < RIO_CPU_NFIELDS; i++) {
		json_object *v = json_object_array_get_idx(t, i);

		if (!json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) < 0)
			goto out;
		s->ticks[i] = (double)json_object_get_int64(v);
	}
	ret = 0;
out:
	json_object_put(o);
	return ret;
}

/* The counter at time x, between the readings around it. */
static double at(const struct rio_cpustat *v, int n, double x,
		 enum rio_cpustat_field f)
{
	int i;

	for (i = 1; i < n; i++)
		if (v[i].t >= x) {
			double span = v[i].t - v[i - 1].t, k;

			k = span > 0 ? (x - v[i - 1].t) / span : 1;
			return v[i - 1].ticks[f] +
			       k * (v[i].ticks[f] - v[i - 1].ticks[f]);
		}
	return NAN;
}

double rio_cpustat_between(const struct rio_cpustat *v, int n, double a,
			   double b, enum rio_cpustat_field field)
{
	if (n < 2 || a < v[0].t || b > v[n - 1].t || b < a || v[0].hz <= 0)
		return NAN;
	return (at(v, n, b, field) - at(v, n, a, field)) / v[0].hz;
}
