#!/usr/bin/python3
"""status-agree.py NFSRDMA_JSON RDMAIO_ENV_JSON [--lab]

Compares `nfsrdma status --json` with the environment.status of `rdmaio env`
taken on the same host, member by member, and prints every path where they
differ. --lab also asks that there was something to compare: an rxe device
with its driver and port, nfsd running, an export and an NFS mount.
"""
import json
import sys


def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append("%s/%s: only in %s" % (path, k, "nfsrdma" if k in a else "rdmaio"))
            else:
                diff(a[k], b[k], "%s/%s" % (path, k), out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append("%s: %d entries in nfsrdma, %d in rdmaio" % (path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, "%s/%d" % (path, i), out)
    elif a != b or type(a) is not type(b):
        out.append("%s: nfsrdma %s, rdmaio %s" % (path, json.dumps(a), json.dumps(b)))


def leaves(x):
    if isinstance(x, dict):
        return sum(leaves(v) for v in x.values())
    if isinstance(x, list):
        return sum(leaves(v) for v in x)
    return 1


def main():
    nr = json.load(open(sys.argv[1]))
    env = json.load(open(sys.argv[2]))["environment"]
    st = env["status"]
    out = []
    if env["source"] != "rdmaio":
        out.append("environment.source is %r, not 'rdmaio'" % env["source"])
    diff(nr, st, "", out)
    if "--lab" in sys.argv:
        rxe = [d for d in st["rdma_devices"] if d["driver"] == "rxe"]
        if not rxe or not rxe[0]["ports"] or rxe[0]["ports"][0]["active_mtu"] is None:
            out.append("no rxe device with a port and its active_mtu: nothing to compare")
        if not st["nfsd"]["running"] or not st["exports"] or not st["nfs_mounts"]:
            out.append("nfsd, an export or an NFS mount is missing: nothing to compare")
    for line in out:
        print("# " + line)
    print("# %d values compared" % leaves(nr))
    sys.exit(1 if out else 0)


main()
