// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check.h"
#include "fio.h"
#include "hostmap.h"
#include "host.h"
#include "jutil.h"
#include "log.h"

#define GIB (1024.0 * 1024 * 1024)

/* Bytes on the wire per packet beyond the payload. */
#define ETH_ROCEV2_OVERHEAD (8 + 12 + 14 + 4 + 20 + 8 + 12 + 4)
#define IB_OVERHEAD (8 + 12 + 4 + 2)

double rio_check_ceiling(double rate_gbps, const char *link_layer, int mtu)
{
	int ib = link_layer && !strcasecmp(link_layer, "infiniband");
	double overhead = ib ? IB_OVERHEAD : ETH_ROCEV2_OVERHEAD;

	return rate_gbps * 1e9 / 8 * mtu / (mtu + overhead);
}

static json_object *link_json(const char *source, const char *dev, int port,
			      const char *ll, double gbps, int mtu)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "source", json_object_new_string(source));
	json_object_object_add(o, "device",
			       dev ? json_object_new_string(dev) : NULL);
	json_object_object_add(o, "port",
			       port ? json_object_new_int(port) : NULL);
	json_object_object_add(o, "link_layer", json_object_new_string(ll));
	json_object_object_add(o, "rate_gbps", json_object_new_double(gbps));
	json_object_object_add(o, "active_mtu", json_object_new_int(mtu));
	json_object_object_add(
		o, "ceiling_bytes_per_s",
		json_object_new_double(rio_check_ceiling(gbps, ll, mtu)));
	return o;
}

/*
 * sysfs gives SDR/DDR/QDR rates as signalling rates, which carry 8b/10b
 * encoding: the data rate is 80% of the figure.
 */
static double data_gbps(json_object *port)
{
	double g = rio_json_num(port, "rate_gbps", 0);
	const char *rate = rio_json_str(port, "rate");

	if (rate &&
	    (strstr(rate, "SDR") || strstr(rate, "DDR") || strstr(rate, "QDR")))
		g *= 0.8;
	return g;
}

json_object *rio_check_links(const struct rio_link_opt *opt,
			     json_object *env_status)
{
	json_object *arr = json_object_new_array(), *devs, *dev, *ports, *p;
	const char *ll, *state;
	size_t i, j;
	int mtu;

	if (opt->rate_gbps > 0 || opt->link_layer || opt->mtu) {
		ll = opt->link_layer ? opt->link_layer : "ethernet";
		mtu = opt->mtu ? opt->mtu : 4096;
		if (!(opt->rate_gbps > 0) ||
		    (strcmp(ll, "ethernet") && strcmp(ll, "infiniband")) ||
		    mtu < 256 || mtu > 4096) {
			RIO_ERR("link: need --link-gbps > 0, --link-layer ethernet|infiniband and --mtu 256..4096 (got %g Gb/s, %s, %d)",
				opt->rate_gbps, ll, mtu);
			json_object_put(arr);
			return NULL;
		}
		json_object_array_add(arr, link_json("option", NULL, 0, ll,
						     opt->rate_gbps, mtu));
		return arr;
	}
	devs = rio_json_get(env_status, "rdma_devices");
	for (i = 0; devs && i < rio_json_len(devs); i++) {
		dev = json_object_array_get_idx(devs, i);
		/* rxe and siw report a rate mapped from the netdev's speed,
		 * 2.5 Gb/s when it has none (veth): not a ceiling. */
		if (rio_json_str(dev, "transport") &&
		    !strcmp(rio_json_str(dev, "transport"), "software"))
			continue;
		ports = rio_json_get(dev, "ports");
		for (j = 0; ports && j < rio_json_len(ports); j++) {
			p = json_object_array_get_idx(ports, j);
			state = rio_json_str(p, "state");
			ll = rio_json_str(p, "link_layer");
			if (!state || strcasecmp(state, "ACTIVE") ||
			    data_gbps(p) <= 0)
				continue;
			/* Unknown MTU: 4096 gives the highest ceiling, so
			 * the check can miss a claim but never invents one. */
			mtu = (int)rio_json_num(p, "active_mtu", 4096);
			json_object_array_add(
				arr,
				link_json("environment",
					  rio_json_str(dev, "name"),
					  (int)rio_json_num(p, "port", 0),
					  ll && !strcasecmp(ll, "infiniband")
						  ? "infiniband"
						  : "ethernet",
					  data_gbps(p),
					  mtu < 256 ? 4096 : mtu));
		}
	}
	return arr;
}

static const char *const ceiling_causes[] = {
	"a cache answered: the client's page cache (direct=0, or data read twice) or the server's, so the bytes never crossed the link",
	"the traffic used more links than recorded: several ports, bonding, multipath or nconnect over several NICs",
	"a unit error: GB vs GiB, Gb/s vs GB/s, or one total counted once per job",
	"the job did not use this link at all: a local engine, loopback or a different interface",
	NULL,
};

struct group {
	const char *host;
	int groupid;
	double bw[2];
};

void rio_check_add(json_object *arr, const char *name, const char *host,
		   int groupid, const char *dir, const char *status,
		   double measured, double ceiling, const char *msg,
		   const char *const *causes)
{
	json_object *c = json_object_new_object(), *lc;
	size_t i;

	lc = json_object_new_array();
	for (i = 0; causes && causes[i]; i++)
		json_object_array_add(lc, json_object_new_string(causes[i]));
	json_object_object_add(c, "name", json_object_new_string(name));
	json_object_object_add(c, "host", json_object_new_string(host));
	json_object_object_add(c, "groupid", json_object_new_int(groupid));
	json_object_object_add(c, "direction",
			       dir ? json_object_new_string(dir) : NULL);
	json_object_object_add(c, "status", json_object_new_string(status));
	json_object_object_add(c, "measured_bytes_per_s",
			       rio_json_num_or_null(measured));
	json_object_object_add(c, "ceiling_bytes_per_s",
			       rio_json_num_or_null(ceiling));
	json_object_object_add(c, "message", json_object_new_string(msg));
	json_object_object_add(c, "likely_causes", lc);
	json_object_array_add(arr, c);
}

static double links_ceiling(json_object *links, const char *host,
			    const struct rio_hostmap *hosts, char *desc,
			    size_t dlen)
{
	double sum = 0;
	json_object *l;
	size_t i;
	int n = 0;

	desc[0] = '\0';
	for (i = 0; i < rio_json_len(links); i++) {
		l = json_object_array_get_idx(links, i);
		/* The environment describes this host only. */
		if (!strcmp(rio_json_str(l, "source"), "environment") &&
		    !rio_hostmap_is_local(hosts, host))
			continue;
		sum += rio_json_num(l, "ceiling_bytes_per_s", 0);
		n++;
		snprintf(desc + strlen(desc), dlen - strlen(desc),
			 "%s%g Gb/s %s MTU %d", n > 1 ? " + " : "",
			 rio_json_num(l, "rate_gbps", 0),
			 rio_json_str(l, "link_layer"),
			 (int)rio_json_num(l, "active_mtu", 0));
	}
	return n ? sum : NAN;
}

static void ceiling_checks(json_object *arr, struct group *g, int ng,
			   json_object *links, const struct rio_hostmap *hosts,
			   int *flagged)
{
	static const char *const dirs[] = { "read", "write" };
	char desc[512], msg[1024];
	double ceil;
	int i, d;

	for (i = 0; i < ng; i++) {
		ceil = links_ceiling(links, g[i].host, hosts, desc,
				     sizeof(desc));
		for (d = 0; d < 2; d++) {
			if (g[i].bw[d] <= 0)
				continue;
			if (isnan(ceil)) {
				snprintf(
					msg, sizeof(msg),
					"%s %.2f GiB/s: no link rate known for host %s (pass --link-gbps to check it)",
					dirs[d], g[i].bw[d] / GIB, g[i].host);
				rio_check_add(arr, "payload-ceiling", g[i].host,
					      g[i].groupid, dirs[d], "skipped",
					      g[i].bw[d], NAN, msg, NULL);
				continue;
			}
			snprintf(
				msg, sizeof(msg),
				"%s %.2f GiB/s (%.1f Gb/s) %s the %.2f GiB/s payload ceiling of %s",
				dirs[d], g[i].bw[d] / GIB, g[i].bw[d] * 8 / 1e9,
				g[i].bw[d] > ceil ? "exceeds" : "is within",
				ceil / GIB, desc);
			rio_check_add(
				arr, "payload-ceiling", g[i].host, g[i].groupid,
				dirs[d], g[i].bw[d] > ceil ? "flagged" : "pass",
				g[i].bw[d], ceil, msg,
				g[i].bw[d] > ceil ? ceiling_causes : NULL);
			*flagged += g[i].bw[d] > ceil;
		}
	}
}

json_object *rio_check_run(json_object *output, const struct rio_hostmap *hosts,
			   json_object *links, json_object *warnings,
			   int *flagged)
{
	int i, j, ng = 0, n = rio_fio_entry_count(output), gid;
	json_object *arr = json_object_new_array(), *e;
	struct group *g = calloc(n ? n : 1, sizeof(*g));
	const char *host;
	char msg[512];

	*flagged = 0;
	if (!g)
		return arr;
	/* Jobs in one fio group run at the same time: they share the link. */
	for (i = 0; i < n; i++) {
		e = rio_fio_entry(output, i, hosts, &host);
		gid = (int)rio_json_num(e, "groupid", 0);
		if (rio_json_num(e, "error", 0) != 0) {
			snprintf(
				msg, sizeof(msg),
				"job %s on %s reported error %d (%s); its numbers are not a measurement",
				rio_json_str(e, "jobname"), host,
				(int)rio_json_num(e, "error", 0),
				strerror((int)rio_json_num(e, "error", 0)));
			rio_check_add(arr, "job-error", host, gid, NULL,
				      "flagged", NAN, NAN, msg, NULL);
			(*flagged)++;
		}
		for (j = 0; j < ng; j++)
			if (g[j].groupid == gid && !strcmp(g[j].host, host))
				break;
		if (j == ng) {
			g[ng].host = host;
			g[ng++].groupid = gid;
		}
		g[j].bw[0] +=
			rio_json_num(rio_json_get(e, "read"), "bw_bytes", 0);
		g[j].bw[1] +=
			rio_json_num(rio_json_get(e, "write"), "bw_bytes", 0);
	}
	ceiling_checks(arr, g, ng, links, hosts, flagged);
	if (!rio_json_len(links))
		rio_warn_add(
			warnings, "no-link",
			"no link rate known (no ACTIVE hardware RDMA port, no --link-gbps; software RDMA devices have none): bandwidth was not checked against a link's payload ceiling");
	free(g);
	return arr;
}
