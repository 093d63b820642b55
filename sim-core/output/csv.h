// CSV cells as every CSV the product writes them (the CLI's trace.csv here; the service's batch
// results and the dashboard's exports through wasm/src/csv.ts, which passes the same cases,
// output/csv_cases.json): RFC 4180 quoting, and a text cell that a spreadsheet would run as a
// formula neutralised, as OWASP's "CSV Injection" advises.
#pragma once

#include <string>
#include <string_view>

namespace tcb {

// One text cell: with a leading apostrophe (which spreadsheets show as text) when it starts with =,
// +, -, @, a tab or a carriage return and is not a plain number (negative numbers stay numbers);
// then in double quotes, with quotes doubled, when it holds a comma, a quote or a line break (RFC
// 4180 §2).
std::string CsvCell(std::string_view text);

}  // namespace tcb
