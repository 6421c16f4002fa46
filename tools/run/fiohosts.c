// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/fiohosts.h"
#include "result/hostmap.h"
#include "run/jobfile.h"
#include "result/jobsection.h"
#include "rc_log.h"
#include "base/strv.h"
#include "base/text.h"

static void host_clear(struct rio_fio_host *h)
{
	while (h->nsections)
		free(h->sections[--h->nsections]);
	free(h->sections);
	free(h->section_job);
	free(h->jobs);
	free(h->client);
	memset(h, 0, sizeof(*h));
}

void rio_fiohosts_free(struct rio_fio_host *hosts, int nhosts)
{
	while (hosts && nhosts-- > 0)
		host_clear(&hosts[nhosts]);
	free(hosts);
}

static struct rio_fio_host *host_new(struct rio_fio_host **hosts, int *n,
				     const char *client)
{
	struct rio_fio_host *nh = realloc(*hosts, (*n + 1) * sizeof(*nh));

	if (!nh)
		return NULL;
	*hosts = nh;
	nh += *n;
	memset(nh, 0, sizeof(*nh));
	nh->local = !strcmp(client, RIO_FIOHOSTS_LOCAL);
	nh->client = strdup(client);
	if (!nh->client)
		return NULL;
	(*n)++;
	return nh;
}

int rio_fiohosts_add(struct rio_fio_host **hosts, int *nhosts,
		     const char *client, char **jobs, int njobs)
{
	struct rio_fio_host *h = host_new(hosts, nhosts, client);

	if (!h)
		return -ENOMEM;
	h->jobs = calloc(njobs ? njobs : 1, sizeof(*h->jobs));
	if (!h->jobs)
		return -ENOMEM;
	memcpy(h->jobs, jobs, njobs * sizeof(*jobs));
	h->njobs = njobs;
	return 0;
}

/* A section of the host's last job file. */
static int push_section(struct rio_fio_host *h, char *name)
{
	int *nj = realloc(h->section_job, (h->nsections + 1) * sizeof(*nj));

	if (!nj) {
		free(name);
		return -ENOMEM;
	}
	h->section_job = nj;
	nj[h->nsections] = h->njobs - 1;
	if (rio_strv_push(&h->sections, &h->nsections, name)) {
		free(name);
		return -ENOMEM;
	}
	return 0;
}

/* A name already given to the other host: fio's --section selects by name
 * across all the job files a host gets. */
static int role_clash(const struct rio_fio_host *other, const char *name,
		      const char *file)
{
	int i, server = !strcmp(other->role, "server");

	for (i = 0; i < other->nsections; i++)
		if (!strcmp(other->sections[i], name)) {
			rc_err("job file %s: section [%s] is a %s here and a %s in another job file; --server-host/--client-host pick sections by name, so give them different names",
			       file, name, server ? "client" : "target",
			       server ? "target" : "client");
			return -EINVAL;
		}
	return 0;
}

static int split_one(char *job, struct rio_fio_host *side[2])
{
	struct rio_jobsection *sec;
	int n, i, used[2] = { 0, 0 }, ret = 0;
	struct rio_fio_host *h;
	char *name;

	n = rio_jobfile_sections(job, &sec);
	if (n <= 0) {
		if (!n)
			rc_err("job file %s: no job section in it (a fio job file has [name] sections)",
			       job);
		return n ? n : -EINVAL;
	}
	for (i = 0; i < n && !ret; i++) {
		h = side[sec[i].listen ? 0 : 1];
		ret = role_clash(side[sec[i].listen ? 1 : 0], sec[i].name, job);
		if (!ret && !used[!sec[i].listen]++)
			ret = rio_strv_push(&h->jobs, &h->njobs, job);
		name = ret ? NULL : strdup(sec[i].name);
		if (!ret)
			ret = name ? push_section(h, name) : -ENOMEM;
	}
	rio_jobsection_free(sec, n);
	return ret;
}

/* Another client host runs what the first one does. */
static int copy_sections(struct rio_fio_host *to,
			 const struct rio_fio_host *from)
{
	int i, ret = 0;

	to->jobs = calloc(from->njobs ? from->njobs : 1, sizeof(*to->jobs));
	to->section_job = calloc(from->nsections ? from->nsections : 1,
				 sizeof(*to->section_job));
	if (!to->jobs || !to->section_job)
		return -ENOMEM;
	memcpy(to->jobs, from->jobs, from->njobs * sizeof(*from->jobs));
	to->njobs = from->njobs;
	memcpy(to->section_job, from->section_job,
	       from->nsections * sizeof(*from->section_job));
	for (i = 0; i < from->nsections && !ret; i++) {
		char *name = strdup(from->sections[i]);

		ret = name ? rio_strv_push(&to->sections, &to->nsections, name)
			   : -ENOMEM;
		if (ret)
			free(name);
	}
	return ret;
}

int rio_fiohosts_split(const char *server, char *const clients[], int nclients,
		       char *const jobs[], int njobs,
		       struct rio_fio_host **hosts, int *nhosts)
{
	struct rio_fio_host *h = NULL, *side[2];
	int i, n = 0, ret = 0;

	*hosts = NULL;
	*nhosts = 0;
	if (nclients < 1)
		return -EINVAL;
	ret = host_new(&h, &n, server) ? 0 : -ENOMEM;
	for (i = 0; i < nclients && !ret; i++)
		ret = host_new(&h, &n, clients[i]) ? 0 : -ENOMEM;
	for (i = 0; i < n && !ret; i++)
		h[i].role = i ? "client" : "server";
	side[0] = ret ? NULL : &h[0];
	side[1] = ret ? NULL : &h[1];
	for (i = 0; i < njobs && !ret; i++)
		ret = split_one(jobs[i], side);
	for (i = 2; i < n && !ret; i++)
		ret = copy_sections(&h[i], &h[1]);
	if (ret) {
		rio_fiohosts_free(h, n);
		return ret;
	}
	/* A host with nothing to run (NFS files have no target) sits out. */
	for (i = n - 1; i >= 0; i--)
		if (!h[i].nsections) {
			host_clear(&h[i]);
			memmove(&h[i], &h[i + 1], (n - i - 1) * sizeof(*h));
			n--;
		}
	*hosts = h;
	*nhosts = n;
	return 0;
}

/* The host of two fio --client strings is the same: 1, 0, or -ENOMEM. */
static int same_host(const char *a, const char *b)
{
	char *ha = rio_hostmap_fio_name(a), *hb = rio_hostmap_fio_name(b);
	int ret = ha && hb ? !strcmp(ha, hb) : -ENOMEM;

	free(ha);
	free(hb);
	return ret;
}

/* The first of clients[0..i) on client i's host: its index, -1 for none,
 * or -ENOMEM - 1 (below -1). */
static int earlier_same(char *const clients[], int i)
{
	int j, same;

	for (j = 0; j < i; j++) {
		same = same_host(clients[j], clients[i]);
		if (same)
			return same < 0 ? same - 1 : j;
	}
	return -1;
}

int rio_fiohosts_distinct(const char *server, char *const clients[],
			  int nclients)
{
	int i, j, same;

	for (i = 0; i < nclients; i++) {
		j = earlier_same(clients, i);
		if (j < -1)
			return -ENOMEM;
		if (j >= 0) {
			rc_err("run: --client-host %s and --client-host %s are one host: its jobs would run twice there and count as two clients; give each client host once",
			       clients[j], clients[i]);
			return -EINVAL;
		}
		same = nclients > 1 ? same_host(server, clients[i]) : 0;
		if (same < 0)
			return same;
		if (same) {
			rc_err("run: --client-host %s is the --server-host (%s): with several client hosts each must be another host than the server, as clients loading it over the network are what is measured; leave it out (a one-host run is --server-host local --client-host local)",
			       clients[i], server);
			return -EINVAL;
		}
	}
	return 0;
}

/* Beside letters and digits: names, IPv4/IPv6 addresses with a zone,
 * fio's prefixes and ,PORT, and plain socket paths. No shell syntax. */
#define HOST_PUNCT "._:%,/+=@~-"

int rio_fiohosts_check(const char *opt, const char *spec)
{
	char *host = rio_hostmap_fio_name(spec), *shown, odd[200];
	const char *why = NULL, *p;
	int ret = 0;

	if (!host)
		return -ENOMEM;
	if (*spec == '-' || *host == '-')
		why = "begins with '-', so ssh and fio would read it as an option, not a host";
	for (p = spec; *p && !why; p++) {
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			why = "holds a blank or a control character, which no host name or address has (a remote shell would split it)";
		else if ((unsigned char)*p >= 0x80)
			why = "holds a byte that is not ASCII (give an internationalized name in its ASCII form, xn--...)";
		else if (!isalnum((unsigned char)*p) &&
			 !strchr(HOST_PUNCT, *p)) {
			snprintf(
				odd, sizeof(odd),
				"holds '%c', which no host name, address or socket path rdmaio takes has (a remote shell could run it as %%h)",
				*p);
			why = odd;
		}
	}
	if (!why && !*host)
		why = "names no host";
	if (why) {
		shown = rio_text_clean(spec, 0);
		rc_err("run: --%s '%s' %s: give a host name or an address (fio's forms: HOST, HOST,PORT, ip6:ADDR, sock:PATH, or 'local')",
		       opt, shown ? shown : "?", why);
		free(shown);
		ret = -EINVAL;
	}
	free(host);
	return ret;
}
