// What every traffic application shares: where it runs, when it starts and stops, and the context
// it opens flows in.
#pragma once

#include <string>

#include "core/event_list.h"
#include "core/simulation.h"
#include "net/network.h"
#include "tcp/tcp_endpoint.h"
#include "workload/flow_registry.h"

namespace tcb {

struct WorkloadContext {
  Simulation& sim;
  Network& network;
  FlowRegistry& flows;
  ControllerFactory make_controller;
};

struct AppPlacement {
  std::string item;       // Traffic item name.
  std::string flow_name;  // Base name of the flows this copy opens.
  int copy = 0;           // Which of the item's copies.
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  SimTime start;
  SimTime stop = SimTime::Infinite();  // No new traffic from here on.
  ConnectionTraits traits;             // For the hosts' sharing schemes.
};

// A traffic application. It is an event source for its own timed actions (start, next write, ...).
class Application : public EventSource {
 public:
  Application(WorkloadContext& context, AppPlacement placement)
      : context_(context), placement_(std::move(placement)) {}

  // Schedules the application's first action; called once before the run.
  virtual void Start() { context_.sim.events().Schedule(*this, placement_.start); }

 protected:
  WorkloadContext& context_;
  AppPlacement placement_;
};

}  // namespace tcb
