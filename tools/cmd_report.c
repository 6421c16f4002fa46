// SPDX-License-Identifier: MIT
/* rdmaio report: a result as Markdown or CSV, and its chart. */
#include <errno.h>
#include <stdio.h>

#include "args.h"
#include "cmd.h"
#include "base/text.h"
#include "rc_log.h"
#include "read/chart.h"
#include "read/csvout.h"
#include "read/report.h"
#include "result/result.h"
#include "result/resultdoc.h"

static int report_csv(json_object *doc)
{
	struct rio_resultdoc *rd;
	int ret = rio_resultdoc_read(doc, &rd);

	if (!ret)
		ret = rio_csv_write(rd, stdout);
	rio_resultdoc_delete(&rd);
	return ret;
}

/* The report of a copy whose names cannot add a table column: the chart
 * and the CSV keep them as they are. */
static int report_markdown(json_object *doc, const struct rio_report_opts *o)
{
	json_object *copy = NULL;
	int ret = json_object_deep_copy(doc, &copy, NULL) ? -ENOMEM : 0;

	if (!ret && rio_text_clean_json(copy, RIO_TEXT_MARKDOWN) < 0)
		ret = -ENOMEM;
	if (!ret)
		ret = rio_report_write(copy, o, stdout);
	json_object_put(copy);
	return ret;
}

int rio_cmd_report(struct rio_args *a)
{
	const struct rio_report_opts o = { .gbit = a->gbit };
	json_object *doc;
	int ret = 0;

	if (a->npos != 1) {
		rc_err("report: give one result file (rdmaio report RESULT.json)");
		return 2;
	}
	if (a->csv && a->gbit) {
		rc_err("report: --units applies to the Markdown report; --csv gives bytes/s and ns as they are (drop one)");
		return 2;
	}
	if (rio_result_load(a->pos[0], &doc))
		return 1;
	ret = rio_text_clean_json(doc, 0) < 0 ? -ENOMEM : 0;
	if (!ret && a->csv)
		ret = report_csv(doc);
	else if (!ret)
		ret = report_markdown(doc, &o);
	if (ret)
		rc_call_err(-ret, "write(%s)", "stdout");
	if (!ret && a->plot) {
		ret = rio_chart_draw(doc, a->plot);
		if (!ret)
			/* The CSV stays one table for a spreadsheet. */
			fprintf(a->csv ? stderr : stdout, "\nchart: %s\n",
				a->plot);
	}
	json_object_put(doc);
	return ret ? 1 : 0;
}
