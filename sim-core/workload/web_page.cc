// Web pages.
#include "workload/web_page.h"

#include <cmath>

namespace tcb {

namespace {
// A drawn size in whole bytes, at least one.
Bytes DrawBytes(const Distribution& d, Rng& rng) {
  const double x = std::floor(d.Draw(rng) + 0.5);
  return x >= 1 ? static_cast<Bytes>(x) : 1;
}
}  // namespace

Bytes WebPage::TotalBytes() const {
  Bytes total = 0;
  for (const WebObject& o : objects) total += o.bytes;
  return total;
}

void WebPage::SpreadLinks() {
  std::vector<int> children(objects.size(), 0);
  for (const WebObject& o : objects) {
    if (o.parent >= 0) ++children[o.parent];
  }
  std::vector<int> seen(objects.size(), 0);
  for (WebObject& o : objects) {
    if (o.parent < 0) continue;
    const int k = seen[o.parent]++;
    if (o.link_at < 0) o.link_at = static_cast<double>(k + 1) / (children[o.parent] + 1);
  }
}

WebPage PageModel::Page(int64_t index, Rng& rng) const {
  if (!fixed.empty()) return fixed[static_cast<size_t>(index % static_cast<int64_t>(fixed.size()))];
  WebPage page;
  page.objects.push_back({DrawBytes(primary_bytes, rng), primary_content, -1, -1});
  const double drawn = std::floor(inline_count.Draw(rng) + 0.5);
  const int inlines = drawn > 0 ? static_cast<int>(drawn < 1000 ? drawn : 1000) : 0;
  for (int i = 0; i < inlines; ++i) page.objects.push_back({DrawBytes(inline_bytes, rng), inline_content, 0, -1});
  page.SpreadLinks();
  return page;
}

}  // namespace tcb
