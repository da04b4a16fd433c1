//===- motif-opt.cpp - the motif optimizer driver -------------------------===//
//
// Registration only: the motif dialect and passes, and the upstream dialects
// and passes the pipeline to PTX needs. All logic lives in lib/.
//
//===----------------------------------------------------------------------===//

#include "motif/InitAll.h"
#include "motif/InputGuard.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::motif::registerAllDialects(registry);
  mlir::motif::registerAllPasses();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "motif optimizer driver\n", registry);
  // Input the upstream parser would abort on (motif/InputGuard.h).
  if (mlir::failed(mlir::motif::checkInputFile(input)))
    return 1;
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, input, output, registry));
}
