// SPDX-License-Identifier: MIT
/*
 * rdmaio: run fio jobs into self-describing, self-checking result files,
 * and report on or compare them. See tools/README.md.
 *
 * The command line. Each subcommand has a table of the options it takes;
 * options.c makes getopt_long's tables from it and refuses an option it
 * does not take, naming the subcommands that do. A new option is an OPT_
 * value (args.h), a line in its subcommand's table, a case in
 * rio_args_set_option() (args.c) and its usage. Each subcommand is a
 * cmd_*.c of its own.
 */
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "options.h"
#include "rc_log.h"

static const struct rio_opt run_opts[] = {
	{ "output", 'o', "FILE" },
	{ "client", OPT_CLIENT, "HOST" },
	{ "server-host", OPT_SERVER_HOST, "HOST" },
	{ "client-host", OPT_CLIENT_HOST, "HOST" },
	{ "fio", OPT_FIO, "PATH" },
	{ "fio-json", OPT_FIO_JSON, "FILE" },
	{ "timeout", OPT_TIMEOUT, "S" },
	{ "repeat", OPT_REPEAT, "N" },
	{ "no-numa", OPT_NO_NUMA, NULL },
	{ "remote-env", OPT_REMOTE_ENV, "CMD" },
	{ "remote-cpu", OPT_REMOTE_CPU, "CMD" },
	{ "baseline", OPT_BASELINE, "NAME=CMD" },
	{ "force", OPT_FORCE, NULL },
	{ NULL, 0, NULL },
};

static const struct rio_opt link_opts[] = {
	{ "link-gbps", OPT_GBPS, "G" },
	{ "link-layer", OPT_LL, "ethernet|infiniband" },
	{ "mtu", OPT_MTU, "N" },
	{ "expect-link-pct", OPT_EXPECT, "PCT" },
	{ NULL, 0, NULL },
};

static const struct rio_opt report_opts[] = {
	{ "plot", OPT_PLOT, "FILE" },
	{ "csv", OPT_CSV, NULL },
	{ "units", OPT_UNITS, "binary|gbit" },
	{ NULL, 0, NULL },
};

static const struct rio_opt scale_opts[] = {
	{ "plot", OPT_PLOT, "FILE" },
	{ NULL, 0, NULL },
};

static const struct rio_opt cpu_watch_opts[] = {
	{ "interval-ms", OPT_INTERVAL, "MS" },
	{ "max-s", OPT_MAX_S, "S" },
	{ NULL, 0, NULL },
};

static const struct rio_opt compare_opts[] = {
	{ "noise", OPT_NOISE, "PCT" },
	{ NULL, 0, NULL },
};

static const struct rio_opt env_opts[] = {
	{ "output", 'o', "FILE" },
	{ "force", OPT_FORCE, NULL },
	{ "fio", OPT_FIO, "PATH" },
	{ NULL, 0, NULL },
};

#define LINK_OPTIONS "LINK options"

/* Lines after a synopsis's first are indented as "usage: " is long. */
static const char run_synopsis[] =
	"rdmaio run [-o RESULT.json [--force]] [--fio PATH] [--timeout S] [--repeat N] [--no-numa] [LINK]\n"
	"                  [--remote-env CMD] [--remote-cpu CMD] [--baseline NAME=CMD]...\n"
	"                  JOB... [--client HOST JOB...]...\n"
	"       rdmaio run [...] --server-host HOST --client-host HOST... JOB...\n"
	"       rdmaio run --fio-json FIO.json [-o RESULT.json] [LINK] [JOB...]\n"
	"JOB:   a job file, or the name of an installed one (verbs/bw, nfs/seq)\n";

static const char link_note[] =
	"LINK:  --link-gbps G [--link-layer ethernet|infiniband] [--mtu N]\n"
	"       [--expect-link-pct PCT]: states the link when it cannot be read\n"
	"       from the RDMA devices; PCT: each job group that can fill it must\n"
	"       move PCT % of its payload ceiling (e.g. 90), else exit status 3\n";

static const char run_note[] =
	"--client HOST: fio's client/server mode (fio --server runs on HOST);\n"
	"       the job files after it run there, the others on every --client\n"
	"--server-host/--client-host HOST: every job file's sections with\n"
	"       `listen` (targets, TCP servers) run on the server host, the\n"
	"       others on each client host (--client-host repeats: all at once);\n"
	"       HOST 'local' is this host, through a fio --server that rdmaio\n"
	"       starts on a private unix socket\n"
	"--remote-env CMD: before fio, run CMD once per host that is not this\n"
	"       one (split on blanks, no shell; %h in a word becomes HOST) and\n"
	"       record the `rdmaio env` document it prints, e.g. 'ssh -- %h rdmaio env'\n"
	"--remote-cpu CMD: while fio runs, run CMD per such host (as --remote-env)\n"
	"       and read the CPU counters it prints, e.g. 'ssh -- %h rdmaio cpu-watch'\n"
	"--repeat N: run the job files N times (1..100), one round after the\n"
	"       other; the result keeps every round and sums them up as medians\n"
	"--baseline NAME=CMD: after each round's fio, time CMD (split as\n"
	"       --remote-env) that copies a file to %o, a path rdmaio makes here:\n"
	"       the file's size over CMD's time is its bandwidth, shown beside the\n"
	"       sequential reads, e.g. 'scp=scp -q HOST:/srv/FILE %o'; a CMD that\n"
	"       fails leaves its error in the result and makes run exit 1\n";

static const char report_note[] =
	"report: Markdown (verdicts, setup, RDMA vs TCP, jobs, targets, checks);\n"
	"       --csv prints every job and pair as CSV instead; --units gbit gives\n"
	"       rates in Gb/s; --plot draws the chart (bandwidth, latency, CPU)\n";

static const char cpu_watch_note[] =
	"cpu-watch: print this host's CPU counters (/proc/stat) as one\n"
	"       rdmaio-cpu/1 JSON line every MS (100) until S seconds (3600)\n"
	"       pass or its reader goes away, and each job of every fio --server\n"
	"       here as rdmaio-task/1 lines: what --remote-cpu runs remotely\n";

static const char compare_note[] =
	"compare: exit status 1 when a regression is beyond noise (judged from\n"
	"       the rounds of `run --repeat N`; by --noise alone with one round),\n"
	"       0 when none is, 2 on usage errors or a file that is no result\n";

static const char scale_note[] =
	"scale: the same jobs run by 1, 2, ... client hosts at once (a result\n"
	"       per count, as make demo CLIENTS=N leaves them): each workload's\n"
	"       aggregate RDMA and TCP bandwidth and the server's CPU per GiB by\n"
	"       count, and each count's verdict; --plot draws them against the count\n";

static const char env_note[] =
	"env:   print this host's versions, host and environment as JSON\n"
	"       (schema rdmaio-env/1)\n";

static const struct rio_subcmd subcmds[] = {
	{ .name = "run",
	  .fn = rio_cmd_run,
	  .sets = { { NULL, run_opts }, { LINK_OPTIONS, link_opts } },
	  .synopsis = run_synopsis,
	  .notes = { link_note, run_note } },
	{ .name = "check",
	  .fn = rio_cmd_check,
	  .sets = { { LINK_OPTIONS, link_opts } },
	  .synopsis = "rdmaio check FIO_OR_RESULT.json [LINK]\n",
	  .notes = { link_note } },
	{ .name = "report",
	  .fn = rio_cmd_report,
	  .sets = { { NULL, report_opts } },
	  .synopsis =
		  "rdmaio report RESULT.json [--plot FILE.svg|FILE.png] [--units binary|gbit] [--csv]\n",
	  .notes = { report_note } },
	{ .name = "compare",
	  .fn = rio_cmd_compare,
	  .sets = { { NULL, compare_opts } },
	  .synopsis = "rdmaio compare OLD.json NEW.json [--noise PCT]\n",
	  .notes = { compare_note } },
	{ .name = "scale",
	  .fn = rio_cmd_scale,
	  .sets = { { NULL, scale_opts } },
	  .synopsis =
		  "rdmaio scale RESULT.json RESULT.json... [--plot FILE.svg|FILE.png]\n",
	  .notes = { scale_note } },
	{ .name = "env",
	  .fn = rio_cmd_env,
	  .sets = { { NULL, env_opts } },
	  .synopsis = "rdmaio env [-o FILE [--force]] [--fio PATH]\n",
	  .notes = { env_note } },
	{ .name = "cpu-watch",
	  .fn = rio_cmd_cpu_watch,
	  .sets = { { NULL, cpu_watch_opts } },
	  .synopsis = "rdmaio cpu-watch [--interval-ms MS] [--max-s S]\n",
	  .notes = { cpu_watch_note } },
	{ .name = NULL },
};

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	const struct rio_subcmd *sub;
	struct rio_args a;
	int ret;

	rc_log_init("rdmaio");

	if (!cmd) {
		rio_opt_usage(subcmds, stderr);
		return 2;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		rio_opt_usage(subcmds, stdout);
		return 0;
	}
	sub = rio_opt_subcmd(subcmds, cmd);
	if (!sub) {
		rio_opt_usage(subcmds, stderr);
		return 2;
	}
	rio_args_init(&a, argc, argv);
	if (rio_opt_parse(subcmds, sub, argc - 1, argv + 1, rio_args_set_option,
			  &a, &ret))
		ret = sub->fn(&a);
	rio_args_free(&a);
	return ret;
}
