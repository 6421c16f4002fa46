/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_PLOTFILE_H
#define RDMAIO_TOOLS_PLOTFILE_H

#include <stdio.h>

/*
 * Writes a figure's gnuplot data and script: the data file (to be read
 * from data_path) and the script that draws img_path (svg: 1, else PNG).
 * Returns 0 or a negative code after saying why.
 */
typedef int (*rio_plot_write_fn)(void *arg, FILE *data, const char *data_path,
				 FILE *script, const char *img_path, int svg);

/*
 * One figure drawn by gnuplot into path (.svg or .png, which picks the
 * format): write() fills a private folder's data and script, gnuplot draws
 * there, and the image then replaces path as a result does (a hidden
 * temporary, fsync, rename), so nothing is written through a link at path
 * and a failure leaves path as it was. Returns 0 or a negative code after
 * saying why.
 */
int rio_plot_file(const char *path, rio_plot_write_fn write, void *arg);

#endif
