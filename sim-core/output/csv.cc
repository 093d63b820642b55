// CSV cells.
#include "output/csv.h"

namespace tcb {

namespace {

bool Digit(char c) { return c >= '0' && c <= '9'; }

// [+-]?(digits(.digits?)?|.digits)([eE][+-]?digits)?, as csv.ts's plainNumber.
bool PlainNumber(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    const size_t start = i;
    while (i < s.size() && Digit(s[i])) ++i;
    return i > start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  const bool integer = digits();
  bool fraction = false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    fraction = digits();
  }
  if (!integer && !fraction) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

}  // namespace

std::string CsvCell(std::string_view text) {
  std::string cell;
  // OWASP, "CSV Injection": a cell starting with one of these is run as a formula by spreadsheets,
  // or lets a formula follow (a semicolon, the separator in many locales; a space or a line feed,
  // which some skip). As csv.ts's formulaStart.
  const bool formula = !text.empty() && std::string_view("=+-@\t\r\n; ").find(text[0]) != std::string_view::npos;
  if (formula && !PlainNumber(text)) cell = "'";
  cell += text;
  if (cell.find_first_of(",\"\n\r") == std::string::npos) return cell;
  // RFC 4180 §2 rules 6 and 7: quoted, with quotes doubled.
  std::string quoted = "\"";
  for (char c : cell) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

}  // namespace tcb
