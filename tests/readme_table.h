/* README.md's accuracy tables, read by the tests that hold the code to them:
 * README is the one home of each op's documented maximum error, so adding an
 * op (or changing its arithmetic) means adding (or updating) its row there.
 *
 * A table follows a marker line "<!-- accuracy: KEY -->" (KEY e.g. "f32
 * accurate"), then a header row and a separator row; each row after them is
 * "| op | max error | at x = | correctly rounded | ..." with op possibly in
 * backticks, the maximum a decimal, x printed with %.9g (so that strtof gives
 * the float back), the share a percentage. The table ends at the first line
 * that does not start with '|'. */
#ifndef ACTK_TESTS_README_TABLE_H
#define ACTK_TESTS_README_TABLE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char op[32];
  double max;         /* the documented maximum, as printed */
  float worst_x;      /* where it occurs */
  double correct_pct; /* the share correctly rounded, percent */
} readme_row;

/* Splits a table row into at most max_cells trimmed cells (backticks
 * dropped); returns how many. The row is modified. */
static inline int readme_cells(char *line, char **cells, int max_cells) {
  int n = 0;
  char *p = strchr(line, '|');
  while (p && n < max_cells) {
    char *start = p + 1, *end = strchr(start, '|');
    if (!end) break;
    *end = '\0';
    while (*start == ' ' || *start == '`') start++;
    char *e = end;
    while (e > start && (e[-1] == ' ' || e[-1] == '`')) *--e = '\0';
    cells[n++] = start;
    p = end;
  }
  return n;
}

/* Reads the table after "<!-- accuracy: KEY -->" into rows (at most cap);
 * returns the number of rows, or -1 if the file or the marker is missing or
 * a row does not parse (with a message in err). */
static inline int readme_accuracy(const char *path, const char *key, readme_row *rows, int cap,
                                  char *err, size_t err_size) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, err_size, "cannot open %s", path);
    return -1;
  }
  char marker[96], line[256];
  snprintf(marker, sizeof marker, "<!-- accuracy: %s -->", key);
  int found = 0, n = 0, skipped = 0;
  while (fgets(line, sizeof line, f)) {
    if (!found) {
      found = strstr(line, marker) != NULL;
      continue;
    }
    if (line[0] != '|') {
      if (skipped == 0 && line[0] == '\n') continue; /* a blank line after the marker */
      break;
    }
    if (skipped < 2) { /* the header and the |---| separator */
      skipped++;
      continue;
    }
    char *c[8];
    char copy[256];
    snprintf(copy, sizeof copy, "%s", line);
    if (readme_cells(copy, c, 8) < 4 || n >= cap) {
      snprintf(err, err_size, "%s: bad or too many rows under \"%s\": %s", path, marker, line);
      fclose(f);
      return -1;
    }
    readme_row *r = &rows[n++];
    snprintf(r->op, sizeof r->op, "%s", c[0]);
    char *end;
    r->max = strtod(c[1], &end);
    if (end == c[1]) goto bad;
    r->worst_x = strtof(c[2], &end);
    if (end == c[2]) goto bad;
    r->correct_pct = strtod(c[3], &end);
    if (end == c[3]) goto bad;
    continue;
  bad:
    if (!strcmp(c[1], "-")) /* tools/gen_ops.py's stub for a new op */
      snprintf(err, err_size,
               "%s: %s's row under \"%s\" is not measured yet: python3 tools/readme_rows.py "
               "measures and writes every such row (tools/actk_sweep %s --readme 1, with the "
               "table's --tier and --type, prints one)",
               path, c[0], marker, c[0]);
    else
      snprintf(err, err_size, "%s: a row under \"%s\" does not parse: %s", path, marker, line);
    fclose(f);
    return -1;
  }
  fclose(f);
  if (!found) {
    snprintf(err, err_size, "%s has no line \"%s\"", path, marker);
    return -1;
  }
  return n;
}

#endif
