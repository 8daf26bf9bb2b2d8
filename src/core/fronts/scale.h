// The search works on power-of-two scaled responses and weights (see
// Dataset::y_exp, w_exp); trees and losses go back to the caller's units.
#pragma once
#include <cmath>

#include "core/data/dataset.h"
#include "core/fronts/tree.h"

namespace dpdt {

inline void unscale_node_stats(FlatTree& t, const Dataset& d) {
  for (int v = 0; v < t.size(); ++v) {
    t.weight[v] = d.unscale_weight(t.weight[v]);
    t.loss[v] = d.unscale_loss(t.loss[v]);
    if (d.regression()) t.value[v] = d.unscale_response(t.value[v]);
  }
  for (double& c : t.class_weight) c = d.unscale_weight(c);
}

}  // namespace dpdt
