// Bulk transfer (FTP): files of a fixed size (or one endless stream) sent back to back, each on a
// new connection opened as soon as the previous file has arrived (Gürkan §4.1's persistent FTP).
#pragma once

#include "workload/application.h"

namespace tcb {

class BulkApp final : public Application, public TcpApplication {
 public:
  static constexpr int64_t kForever = -1;
  static constexpr Bytes kUnlimited = -1;

  BulkApp(WorkloadContext& context, AppPlacement placement, TcpConfig tcp, Bytes file_bytes,
          int64_t files)
      : Application(context, std::move(placement)),
        tcp_(tcp),
        file_bytes_(file_bytes),
        files_(files) {}

  void OnEvent() override { StartFile(); }

  void OnConnected(TcpEndpoint& endpoint) override;
  void OnDataReceived(TcpEndpoint& endpoint, Bytes total) override;
  void OnPeerClosed(TcpEndpoint& endpoint) override;

 private:
  void StartFile();

  TcpConfig tcp_;
  Bytes file_bytes_;
  int64_t files_;
  int64_t files_started_ = 0;
  size_t transfer_ = 0;  // Record of the file in progress.
};

}  // namespace tcb
