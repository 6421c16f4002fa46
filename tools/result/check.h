/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_CHECK_H
#define RDMAIO_TOOLS_CHECK_H

#include <stddef.h>

#include <json-c/json.h>

struct rio_fio_job;
struct rio_fio_output;
struct rio_fio_argvs;
struct rio_hostmap;
struct rio_env_mount;
struct rio_resultenv;
struct rio_fio_host;
struct rio_task;
struct rio_cpu_series;
struct rio_run_span;

/* A link named on the command line (--link-gbps and friends). */
struct rio_link_opt {
	double rate_gbps; /* 0: none given */
	const char *link_layer; /* "ethernet" (RoCEv2/IPv4) or "infiniband" */
	int mtu; /* RDMA path MTU: 256..4096 */
	/* --expect-link-pct: each group that can fill a link must move this
	 * share of its payload ceiling (a line-rate check); 0: none */
	double expect_pct;
};

/*
 * Payload ceiling in bytes/s of one link: the line rate less the per-packet
 * headers at this MTU (RoCEv2 over IPv4 on Ethernet: preamble, IFG, Ethernet,
 * IP, UDP, BTH, ICRC; InfiniBand: LRH, BTH, ICRC, VCRC).
 */
double rio_check_ceiling(double rate_gbps, const char *link_layer, int mtu);

/* A link the jobs may have used (the result's links[]): the option's,
 * or an ACTIVE port of a hardware RDMA device. */
struct rio_link {
	const char *source; /* "option" or "environment" */
	char *device; /* NULL for the option's */
	int port; /* 0 for the option's */
	const char *link_layer; /* "ethernet" or "infiniband" */
	double rate_gbps;
	int active_mtu;
	double ceiling; /* payload bytes/s: rio_check_ceiling */
};

struct rio_links {
	struct rio_link *v;
	size_t n;
	double expect_pct; /* the option's: a line-rate check when > 0 */
};

/*
 * The links: the option's link if given, else every ACTIVE port of a
 * hardware device in the environment status (read through resultenv.h).
 * Returns 0, -EINVAL after printing why the option is invalid, or -ENOMEM
 * (for the caller to say); *out is then empty. Free with
 * rio_check_links_free.
 */
int rio_check_links(const struct rio_link_opt *opt, json_object *env_status,
		    struct rio_links *out);
void rio_check_links_free(struct rio_links *links);

/* The result's "links" array; NULL when out of memory. */
json_object *rio_check_links_json(const struct rio_links *links);

/*
 * The result's "checks": per host, fio group and direction, the most
 * bandwidth its jobs can have had in flight at once against the summed link
 * ceilings, and every job that reported an error. Jobs chained by fio's
 * wait_for ran one after another, so the sum is the heaviest set of jobs
 * of which none waits for another (an upper bound: it never undercounts).
 * Adds a "no-link" warning when no link is known. Returns the number of
 * flagged checks through *flagged.
 *
 * runs are the command lines of the result's fio.runs of a run split by
 * role (none or one: the entries are one fio run's). Each fio run
 * numbers its groups from 0, and the runs followed one another: an
 * entry's run is found from the --section names of each run's argv, and
 * jobs of different runs are never summed together.
 */
json_object *rio_check_run(const struct rio_fio_output *fio,
			   const struct rio_fio_argvs *runs,
			   const struct rio_hostmap *hosts,
			   const struct rio_links *links, json_object *warnings,
			   int *flagged);

/*
 * Appends one check object; causes is a NULL-terminated list of likely
 * causes (NULL: none). NaN measured/ceiling become JSON null.
 */
void rio_check_add(json_object *arr, const char *name, const char *host,
		   int groupid, const char *dir, const char *status,
		   double measured, double ceiling, const char *msg,
		   const char *const *causes);

/*
 * For each of this host's jobs named "-rdma", "-tcp" or "-tcp-nconnect"
 * whose directory or filename is an absolute path (not under /dev): an
 * "nfs-transport" check, flagged when the NFS mount it lies on has another
 * proto than the name says (or, for -tcp-nconnect, one connection), or
 * when it lies on no NFS mount seen during the run (the model's
 * mounts during the run), so the job measured a local file system. env
 * NULL, or mounts not recorded (a bare fio JSON): no checks.
 */
void rio_check_nfs_transport(const struct rio_fio_output *fio,
			     const struct rio_hostmap *hosts,
			     const struct rio_resultenv *env,
			     json_object *checks, int *flagged);

/*
 * Where a fio job's files are: its own options before the global ones
 * (fio's JSON keeps them apart), an absolute filename before a directory.
 * NULL when neither is an absolute path; the caller frees it.
 */
char *rio_check_job_path(const struct rio_fio_output *fio,
			 const struct rio_fio_job *job);

/*
 * The job's setting of key: from fio's output, else from the job file that
 * has its section (job_files: the result's, with their text). fio 3.33's
 * client mode prints a job's options only for the first job of a file when
 * numjobs clones the jobs (it looks them up by thread number), and never
 * the [global] ones of a run of several files. Malloc'd; NULL for none.
 */
char *rio_check_job_setting(const struct rio_fio_output *fio,
			    json_object *job_files, const struct rio_fio_job *e,
			    const char *key);

/* An NFS mount's source "SERVER:/path" or "[v6]:/path" -> SERVER
 * (malloc'd); NULL when it has no ':' or on ENOMEM. */
char *rio_check_nfs_server(const char *source);

/* The mount of the n in v holding path: the longest mountpoint that is a
 * prefix of it; NULL for none. */
const struct rio_env_mount *rio_check_mount_of(const struct rio_env_mount *v,
					       size_t n, const char *path);

/*
 * One "numa" check of this host (host groupid -1) from the result's
 * host.numa (run/numa.h): skipped, with its note, when no RDMA device has
 * a known NUMA node (the lab's software devices); flagged when a job of this
 * host names CPUs past the device's node (cpus_allowed=, numa_cpu_nodes=;
 * from job_files where fio's output lacks them: rio_check_job_setting),
 * or when the jobs were not placed on a host of several nodes; else pass.
 * numa NULL (an older result, an imported run): no check.
 */
void rio_check_numa(const struct rio_fio_output *fio, json_object *job_files,
		    const struct rio_hostmap *map, json_object *numa,
		    json_object *checks, int *flagged);

/*
 * For each workload of a host with an -rdma job and a -tcp or a
 * -tcp-nconnect job (or both) whose files lie on NFS mounts: a "fairness"
 * check with the sides' settings beside each other (its "settings": each
 * side's mount, the export and its server's nfsd threads), flagged when
 * RDMA and a TCP side differ in more than the transport (the export or
 * server, NFS version, rsize/wsize, timeo, an export's sync; TCP's
 * connections are the point of a -tcp-nconnect side), when TCP has one
 * connection on a link over 25 Gb/s and no -tcp-nconnect side, when the
 * -tcp-nconnect side has one, or when the server has fewer nfsd threads
 * than both its CPUs and the requests the jobs keep in flight; each
 * difference comes with its fix as a likely
 * cause. fio's client mode leaves some jobs' options out of its output:
 * those are read from job_files (the result's, with their text); a job
 * whose path is still not known, but whose section gives files, is taken
 * to be on its host's one NFS mount of the proto its name says. env NULL:
 * no checks.
 */
void rio_check_fairness(const struct rio_fio_output *fio,
			const struct rio_resultenv *env, json_object *job_files,
			const struct rio_links *links, json_object *checks,
			int *flagged);

/*
 * For each job with a peer — its `hostname` (a librdmaio client, fio's net
 * engine) or the NFS server of the mount its files lie on — a "loopback"
 * check: flagged when the peer is an address of the host that ran the job,
 * whose traffic then never crosses a link. What env knows of the host
 * (by its hostname) tells: its addresses, and its NFS mounts (this
 * host's seen during the run, a --remote-env host's from its
 * environment); a host without addresses gets a skipped check. env NULL:
 * nothing is known of any host, and no check is made.
 */
void rio_check_loopback(const struct rio_fio_output *fio,
			const struct rio_resultenv *env, json_object *checks,
			int *flagged);

/* What the overlap check reads of a run (result/runrecord.h). */
struct rio_overlap_in {
	const struct rio_fio_host *hosts; /* fio's --client hosts */
	int nhosts;
	const struct rio_task *tasks; /* fio's job tasks on this host */
	int ntasks;
	const struct rio_cpu_series *cpu; /* remote hosts' tasks with theirs */
	int ncpu;
	const struct rio_run_span *spans; /* when each fio run ran */
	int nspans;
	const struct rio_hostmap *map;
};

/*
 * For each fio run in which two client hosts or more ran jobs (hosts of
 * role "client", or plain --client hosts), an "overlap" check, host "all
 * clients", groupid -1: flagged when one of them started its jobs later,
 * or ended them earlier, than the first to start or the last to end, by
 * more than 10 % of their span (at least twice the watch's sampling
 * interval and 0.25 s). Tasks are this host's own watch's, and a remote
 * host's as its --remote-cpu command reported them: when a client host's
 * are not known, one skipped check names it. *flagged gets the number
 * flagged.
 */
void rio_check_overlap(const struct rio_overlap_in *in, json_object *checks,
		       int *flagged);

#endif
