/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_OUTFILE_H
#define RDMAIO_TOOLS_OUTFILE_H

#include <stdbool.h>

/*
 * Whether rdmaio may write its document (a result, an env document) at
 * path, decided before anything runs. rdmaio often runs as root, so a
 * mistyped -o must not cost the user a file: an existing one is replaced
 * only when it is a document of the same kind (its "schema" begins with
 * schema, e.g. "rdmaio-result/"; kind names it, "an rdmaio result") or, with force, any file or link; never
 * one of the job files given (jobs), a folder or another kind of file.
 * The folder must exist and be writable. Returns 0, or -errno after
 * saying what was found and the fix.
 */
int rio_outfile_check(const char *path, const char *schema, const char *kind,
		      bool force, char *const jobs[], int njobs);

#endif
