// Web pages: a page is an HTML document and the objects its links name (E-TCP §4's five pages,
// Gürkan §3.1's primary + inlines). A page model says which page a client retrieves next.
#pragma once

#include <vector>

#include "core/distributions.h"
#include "core/rng.h"
#include "core/units.h"
#include "tcp/connection_context.h"

namespace tcb {

struct WebObject {
  Bytes bytes = 0;
  ContentType content = ContentType::kImage;
  int parent = -1;  // Index of the object whose link names this one; -1 for the page itself.
  // Fraction of the parent's bytes a client has read when it sees the link (E-TCP §4.3: requests are
  // issued "as it encounters links while parsing the HTML parts"). Negative: not given, spread evenly.
  double link_at = -1;
};

struct WebPage {
  // objects[0] is the page itself (the primary); every parent comes before its children.
  std::vector<WebObject> objects;

  Bytes TotalBytes() const;
  // Places the links not given evenly through each parent: the k-th of n children (0-based) at
  // (k + 1) / (n + 1) of the parent's bytes.
  void SpreadLinks();
};

// Where a client's pages come from: fixed pages taken in turn, or Mah's empirical model as Gürkan
// §3.1 uses it: one primary of Pareto-distributed size (shape 0.91 in [0.85, 0.97]) and a number of
// inline objects of Pareto-distributed sizes (shape 1.24 in [1.12, 1.39]), all at least 1 KB.
struct PageModel {
  std::vector<WebPage> fixed;  // Non-empty: page n is fixed[n % fixed.size()].

  Distribution primary_bytes;
  Distribution inline_bytes;
  Distribution inline_count = Distribution::Constant(3);  // Gürkan: 1 primary + 3 inlines.
  ContentType primary_content = ContentType::kHtml;
  ContentType inline_content = ContentType::kImage;

  // The `index`-th page of a client. A drawn page takes its primary size, then its inline count,
  // then each inline's size from `rng`, in that order; a fixed page draws nothing.
  WebPage Page(int64_t index, Rng& rng) const;
};

}  // namespace tcb
