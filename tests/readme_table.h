/* The documented accuracy, read by the tests that hold the code to it:
 * docs/accuracy.tsv is the one home of each op's documented maximum error
 * (docs/accuracy.md's tables and README's summary are generated from it by
 * tools/gen_ops.py), so adding an op (or changing its arithmetic) means
 * measuring (or updating) its rows there: python3 tools/readme_rows.py.
 *
 * The file is tab-separated: lines starting with '#' are comments, the line
 * starting with "type" names the columns, and each other line is
 * "type tier op max at_x correctly_rounded [over_1_ulp max_ulp
 * sample_correct]" with the maximum a decimal (for f32 fast a relative error,
 * its log2 after it), x printed with %.9g (so that strtof gives the float
 * back), the share a percentage, sample_correct a count (empty: none). A
 * table KEY ("f32 accurate") is the rows of that type and tier, in the
 * file's order. */
#ifndef ACTK_TESTS_README_TABLE_H
#define ACTK_TESTS_README_TABLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char op[32];
  double max;          /* the documented maximum, as printed */
  float worst_x;       /* where it occurs */
  double correct_pct;  /* the share correctly rounded, percent */
  long sample_correct; /* f32: test_accuracy's sample correctly rounded; -1: none */
} readme_row;

/* Splits a tab-separated line into at most max_cells trimmed cells;
 * returns how many. The line is modified. */
static inline int readme_cells(char *line, char **cells, int max_cells) {
  int n = 0;
  char *p = line;
  while (p && n < max_cells) {
    char *next = strchr(p, '\t');
    if (next) *next++ = '\0';
    while (*p == ' ') p++;
    char *e = p + strlen(p);
    while (e > p && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r')) *--e = '\0';
    cells[n++] = p;
    p = next;
  }
  return n;
}

/* Reads table KEY ("f32 accurate": type, space, tier) of the data file at
 * path into rows (at most cap); returns the number of rows, or -1 if the file
 * is missing, has no row of the table, or a row does not parse (with a
 * message in err). */
static inline int readme_accuracy(const char *path, const char *key, readme_row *rows, int cap,
                                  char *err, size_t err_size) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, err_size, "cannot open %s", path);
    return -1;
  }
  char type[16], tier[16];
  if (sscanf(key, "%15s %15s", type, tier) != 2) {
    snprintf(err, err_size, "bad table key \"%s\" (want \"TYPE TIER\")", key);
    fclose(f);
    return -1;
  }
  char line[512];
  int n = 0, lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] == '#' || line[0] == '\n' || !strncmp(line, "type\t", 5)) continue;
    char *c[10];
    char copy[512];
    snprintf(copy, sizeof copy, "%s", line);
    int cells = readme_cells(copy, c, 10);
    if (cells < 6) {
      snprintf(err, err_size, "%s:%d: %d tab-separated cells, want at least 6: %.200s", path,
               lineno, cells, line);
      fclose(f);
      return -1;
    }
    if (strcmp(c[0], type) || strcmp(c[1], tier)) continue;
    if (n >= cap) {
      snprintf(err, err_size, "%s:%d: more than %d rows of table \"%s\"", path, lineno, cap, key);
      fclose(f);
      return -1;
    }
    for (int k = 0; k < n; k++)
      if (!strcmp(rows[k].op, c[2])) {
        snprintf(err, err_size, "%s:%d: a second row of %s in table \"%s\"", path, lineno, c[2],
                 key);
        fclose(f);
        return -1;
      }
    readme_row *r = &rows[n++];
    snprintf(r->op, sizeof r->op, "%s", c[2]);
    /* each number whole: "1.0x21" is a typo, not 1.0 (after the maximum only
     * f32 fast's " (2^-19.84)", after the share only its '%') */
    char *end;
    r->max = strtod(c[3], &end);
    if (end == c[3] || (*end && strncmp(end, " (", 2))) goto bad;
    r->worst_x = strtof(c[4], &end);
    if (end == c[4] || *end) goto bad;
    r->correct_pct = strtod(c[5], &end);
    if (end == c[5] || (*end && strcmp(end, "%"))) goto bad;
    r->sample_correct = -1;
    if (cells > 8 && *c[8]) {
      r->sample_correct = strtol(c[8], &end, 10);
      if (end == c[8] || *end || r->sample_correct < 0) goto bad;
    }
    continue;
  bad:
    if (!strcmp(c[3], "-")) /* tools/gen_ops.py's stub for a new op */
      snprintf(err, err_size,
               "%s:%d: %s's row of \"%s\" is not measured yet: python3 tools/readme_rows.py "
               "measures and writes every such row (tools/actk_sweep %s --readme 1, with the "
               "table's --tier and --type, prints one)",
               path, lineno, c[2], key, c[2]);
    else
      snprintf(err, err_size, "%s:%d: a row of \"%s\" does not parse: %.200s", path, lineno, key,
               line);
    fclose(f);
    return -1;
  }
  fclose(f);
  if (n == 0) {
    snprintf(err, err_size, "%s has no row of table \"%s\"", path, key);
    return -1;
  }
  return n;
}

#endif
