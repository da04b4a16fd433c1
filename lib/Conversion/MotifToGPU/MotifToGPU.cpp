//===- MotifToGPU.cpp - motif kernels to gpu.func + host launches ---------===//
//
// Not a DialectConversion: a motif.kernel is not rewritten op by op, it is
// re-emitted per thread (KernelEmitter), and its tensors become either SSA
// values, workgroup buffers or kernel parameters depending on their
// materialization. The host side is destination-passing memref code that
// allocates the global intermediates and launches the kernels in order.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"
#include "motif/Analysis/ResourceModel.h"
#include "motif/Analysis/Schedule.h"
#include "motif/Conversion/Passes.h"
#include "motif/Dialect/MotifNVVM/IR/MotifNVVMDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "convert-motif-to-gpu"

namespace mlir::motif {
#define GEN_PASS_DEF_CONVERTMOTIFTOGPU
#include "motif/Conversion/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::detail;

/// The static shared memory a block may declare without opt-in.
static constexpr int64_t kStaticSharedLimit = 48 * 1024;
/// The most dynamic shared memory a block may opt in to on any supported
/// chip (sm_90, sm_100: 227 KiB; motif-compile checks the chip's own limit).
static constexpr int64_t kDynamicSharedLimit = 232448;
static constexpr llvm::StringLiteral kGpuModuleName = "motif_kernels";

static std::string sanitize(StringRef name) {
  std::string out;
  for (char c : name)
    out.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  if (out.empty() || llvm::isDigit(out.front()))
    out.insert(out.begin(), '_');
  return out;
}

/// The host's buffer for a tensor: its shape, a runtime row count included.
static MemRefType memrefFor(Value tensor) {
  auto t = cast<RankedTensorType>(tensor.getType());
  return MemRefType::get(t.getShape(), t.getElementType());
}

/// A kernel parameter's type: the bare-pointer calling convention takes
/// static shapes only, so a runtime row count becomes the most rows the
/// function launches with (`maxRows`). The row stride is static either
/// way, and no kernel reads a row past the grid (docs/abi.md).
static MemRefType kernelParamType(MemRefType host, int64_t maxRows) {
  if (host.hasStaticShape())
    return host;
  SmallVector<int64_t> shape(host.getShape());
  shape[0] = maxRows;
  return MemRefType::get(shape, host.getElementType());
}

namespace {
struct ConvertMotifToGPUPass
    : public motif::impl::ConvertMotifToGPUBase<ConvertMotifToGPUPass> {
  using Base::Base;
  LogicalResult initialize(MLIRContext *ctx) override {
    if (!lookupTarget(chip)) {
      emitError(UnknownLoc::get(ctx))
          << "convert-motif-to-gpu: unknown chip '" << chip
          << "' (known: " << knownTargets() << ")";
      return failure();
    }
    for (auto [name, value] :
         {std::make_pair("online-wgmma-pv", &onlineWgmmaPV),
          std::make_pair("online-overlap", &onlineOverlap),
          std::make_pair("online-pingpong", &onlinePingpong),
          std::make_pair("online-mbarrier", &onlineMbarrier)})
      if (!parseAutoChoice(value->getValue())) {
        emitError(UnknownLoc::get(ctx))
            << "convert-motif-to-gpu: " << name << "='" << value->getValue()
            << "' is not one of auto, true, false";
        return failure();
      }
    if (gridGroup < -1) {
      emitError(UnknownLoc::get(ctx))
          << "convert-motif-to-gpu: grid-group=" << int64_t(gridGroup)
          << " is not a group size (0 or 1: row-major, N > 1: groups of N "
             "block rows, -1: auto)";
      return failure();
    }
    return success();
  }
  void runOnOperation() override;

private:
  LogicalResult convertFunction(func::FuncOp func, gpu::GPUModuleOp gpuModule,
                                SymbolTable &kernels);
};
} // namespace

LogicalResult
ConvertMotifToGPUPass::convertFunction(func::FuncOp func,
                                       gpu::GPUModuleOp gpuModule,
                                       SymbolTable &kernels) {
  MLIRContext *ctx = func.getContext();
  Location loc = func.getLoc();
  FunctionType type = func.getFunctionType();
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults())) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !hasStaticTrailingDims(tensor) ||
        !isTensorElementType(tensor.getElementType()))
      return func.emitError() << "has a " << t
                              << " in its signature: the GPU lowering takes "
                                 "f32, f16 and bf16 tensors, static but for "
                                 "a leading row count";
  }
  if (!func.getBody().hasOneBlock() ||
      !isa<func::ReturnOp>(func.getBody().front().getTerminator()))
    return func.emitOpError()
           << "must be one block of motif.kernel ops ending in func.return to "
              "be lowered (control flow between kernels is not supported)";
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());

  // Destination-passing host signature: inputs, then one buffer per result.
  SmallVector<Type> hostTypes;
  for (Value arg : func.getArguments())
    hostTypes.push_back(memrefFor(arg));
  for (Value r : ret.getOperands())
    hostTypes.push_back(memrefFor(r));
  OpBuilder b(func);
  auto host = func::FuncOp::create(b, loc, (func.getName() + ".host").str(),
                                   FunctionType::get(ctx, hostTypes, {}));
  host->setAttr("motif.host", UnitAttr::get(ctx));
  Block *hostBody = host.addEntryBlock();
  unsigned numInputs = func.getNumArguments();
  for (unsigned i = 0; i < host.getNumArguments(); ++i) {
    bool input = i < numInputs;
    host.setArgAttr(i, "motif.buffer",
                    b.getStringAttr(input ? "arg" + std::to_string(i)
                                          : "result" +
                                                std::to_string(i - numInputs)));
    host.setArgAttr(i, "motif.role", b.getStringAttr(input ? "input" : "output"));
  }

  llvm::DenseMap<Value, Value> buffers;
  for (auto [arg, harg] : llvm::zip(func.getArguments(), host.getArguments()))
    buffers[arg] = harg;
  llvm::DenseMap<Value, Value> outputs;
  for (auto [j, r] : llvm::enumerate(ret.getOperands())) {
    if (!r.getDefiningOp<KernelOp>())
      return ret.emitOpError() << "returns result #" << j
                               << ", which no motif.kernel computes";
    if (outputs.count(r))
      return ret.emitOpError() << "returns the same kernel result twice";
    outputs[r] = host.getArgument(numInputs + j);
  }

  // Kernel names name the buffers of their results (k.out0): one per
  // function.
  llvm::StringMap<KernelOp> names;
  for (auto kernel : body.getOps<KernelOp>()) {
    auto [it, inserted] = names.try_emplace(kernel.getSymName(), kernel);
    if (!inserted) {
      InFlightDiagnostic d = kernel.emitOpError()
                             << "is named '" << kernel.getSymName()
                             << "' like another kernel of @" << func.getName()
                             << ": kernel names must be unique in a function";
      d.attachNote(it->second.getLoc()) << "the other one";
      return d;
    }
  }

  // A runtime row count (docs/dialect.md, "Runtime row counts"): every `?`
  // of the function is one size, read off the first argument that has it.
  // The grid of a kernel whose outermost grid dim is the row count is
  // rows x blocksPerRow; maxRows keeps every launch within the grid limit
  // and every buffer within the 2^40 elements the tools index.
  b.setInsertionPointToStart(hostBody);
  Value rows;
  for (auto [arg, harg] : llvm::zip(func.getArguments(), host.getArguments()))
    if (!rows && hasDynamicRows(arg.getType()))
      rows = memref::DimOp::create(b, loc, harg, 0);
  int64_t maxRows = kMaxGridBlocks;
  auto boundBy = [&](Type t) {
    if (hasDynamicRows(t))
      maxRows = std::min(maxRows, kMaxIterationInstances /
                                      elementsPerRow(cast<ShapedType>(t)));
  };
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults()))
    boundBy(t);
  for (auto kernel : body.getOps<KernelOp>()) {
    for (Type t : kernel.getResultTypes())
      boundBy(t);
    for (Operation &inner : kernel.getBodyBlock())
      if (auto motif = dyn_cast<ComputeOpInterface>(inner)) {
        SmallVector<int64_t> grid = motif.getGridExtents();
        if (!grid.empty() && ShapedType::isDynamic(grid.front())) {
          // CTAs per row: a cluster's CTAs each count.
          int64_t perRow = kernel.getClusterSize();
          for (int64_t g : ArrayRef(grid).drop_front())
            perRow *= g;
          maxRows = std::min(maxRows, kMaxGridBlocks / perRow);
        }
        break;
      }
    bool dynamic = llvm::any_of(kernel.getResultTypes(), hasDynamicRows);
    if (dynamic && !rows)
      return kernel.emitOpError()
             << "computes a tensor with a runtime row count, but no argument "
                "of @"
             << func.getName()
             << " has one: the row count is read off the arguments at launch";
  }
  if (rows) {
    host->setAttr("motif.max_rows", b.getI64IntegerAttr(maxRows));
    if (maxRows < 1)
      return func.emitError() << "has rows too large for any runtime row "
                                 "count: one row exceeds the grid or "
                                 "element limit";
  }

  SmallVector<Value> allocs;
  for (Operation &op : body.without_terminator()) {
    auto kernel = dyn_cast<KernelOp>(op);
    if (!kernel)
      return op.emitOpError()
             << "cannot be lowered at function level: a motif function holds "
                "only motif.kernel ops";
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(kernel.getBody(), captured);
    SmallVector<Value> inputs;
    for (Value v : captured) {
      if (!isa<RankedTensorType>(v.getType()))
        return kernel.emitOpError()
               << "captures a non-tensor value from above; scalars belong in "
                  "a motif.map body";
      inputs.push_back(v);
    }
    SmallVector<Value> args;
    SmallVector<Type> argTypes;
    auto addParam = [&](Value buf) {
      auto hostType = cast<MemRefType>(buf.getType());
      MemRefType paramType = kernelParamType(hostType, maxRows);
      argTypes.push_back(paramType);
      args.push_back(paramType == hostType
                         ? buf
                         : Value(memref::CastOp::create(b, loc, paramType,
                                                        buf)));
    };
    for (Value v : inputs)
      addParam(buffers.lookup(v));
    for (auto [r, result] : llvm::enumerate(kernel.getResults())) {
      Value buf = outputs.lookup(result);
      if (!buf) {
        MemRefType t = memrefFor(result);
        auto alloc = memref::AllocOp::create(
            b, loc, t, t.hasStaticShape() ? ValueRange() : ValueRange(rows));
        alloc->setAttr("motif.buffer",
                       b.getStringAttr(kernel.getSymName() + ".out" +
                                       std::to_string(r)));
        allocs.push_back(alloc);
        buf = alloc;
      }
      buffers[result] = buf;
      addParam(buf);
    }

    // The grid: what the kernel's motifs map to blocks (all agree).
    SmallVector<int64_t> grid;
    for (Operation &inner : kernel.getBodyBlock())
      if (auto motif = dyn_cast<ComputeOpInterface>(inner)) {
        grid = motif.getGridExtents();
        break;
      }
    // A grid over the row count: gridSize is the blocks per row.
    bool perRow = !grid.empty() && ShapedType::isDynamic(grid.front());
    int64_t gridSize = 1;
    for (int64_t g : ArrayRef(grid).drop_front(perRow ? 1 : 0))
      gridSize *= g;
    if (gridSize > std::numeric_limits<int32_t>::max())
      return kernel.emitOpError() << "launches " << gridSize
                                  << " blocks, over the 2^31-1 grid limit";

    // A cluster (docs/lowering.md, "Clusters"): the block runs as `cluster`
    // CTAs of threads / cluster threads, clusters tiling blockIdx.x. The
    // schedule is the block's either way, so on a chip without clusters the
    // block runs as one CTA, with a remark.
    int64_t cluster = kernel.getClusterSize();
    if (cluster > 1) {
      int64_t most = lookupTarget(chip)->maxClusterSize;
      if (cluster > most) {
        kernel.emitRemark()
            << "cluster(" << cluster << ") not used on " << chip
            << " (clusters of at most " << most
            << " CTA(s)): the block runs as one CTA of "
            << kernel.getThreads() << " threads (the same schedule)";
        cluster = 1;
      } else if (gridSize > std::numeric_limits<int32_t>::max() / cluster) {
        return kernel.emitOpError()
               << "launches " << gridSize << " clusters of " << cluster
               << " CTAs, over the 2^31-1 grid limit";
      }
    }
    int64_t ctaThreads = kernel.getThreads() / cluster;

    std::string name = sanitize(func.getName().str() + "_" +
                                kernel.getSymName().str());
    std::string unique = name;
    for (int i = 1; kernels.lookup(unique); ++i)
      unique = name + "_" + std::to_string(i);
    OpBuilder mb(gpuModule.getBodyRegion());
    mb.setInsertionPointToEnd(gpuModule.getBody());
    // The kernel function with its attributes and an empty body.
    auto makeFunction = [&] {
      auto gfunc = gpu::GPUFuncOp::create(mb, kernel.getLoc(), unique,
                                          FunctionType::get(ctx, argTypes, {}));
      kernels.insert(gfunc);
      gfunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                     mb.getUnitAttr());
      gfunc.setKnownBlockSizeAttr(mb.getDenseI32ArrayAttr(
          {static_cast<int32_t>(ctaThreads), 1, 1}));
      if (perRow)
        gfunc->setAttr("motif.blocks_per_row",
                       mb.getI64IntegerAttr(gridSize * cluster));
      else
        gfunc.setKnownGridSizeAttr(mb.getDenseI32ArrayAttr(
            {static_cast<int32_t>(gridSize * cluster), 1, 1}));
      // .reqnctapercluster: a launch without cluster attributes (the
      // runtime's, a user's <<<grid, block>>>) forms the clusters.
      if (cluster > 1) {
        gfunc->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                       mb.getDenseI32ArrayAttr(
                           {static_cast<int32_t>(cluster), 1, 1}));
        gfunc->setAttr("motif.cluster", mb.getI64IntegerAttr(cluster));
      }
      // docs/abi.md: buffers never alias, so loads may move past stores (and
      // merge into 128-bit accesses).
      for (unsigned i = 0; i < gfunc.getNumArguments(); ++i)
        gfunc.setArgAttr(i, "llvm.noalias", mb.getUnitAttr());
      // The flash form keeps a score tile and an accumulator tile per thread
      // (about 206 registers); with .maxntid alone ptxas caps a 128-thread
      // block at 128 registers and spills. .maxnreg lifts the cap to what
      // one block may take (the register file over the block, at most 255).
      if (!kernel.getBodyBlock().getOps<OnlineContractOp>().empty())
        gfunc->setAttr(
            NVVM::NVVMDialect::getMaxnregAttrName(),
            mb.getI32IntegerAttr(static_cast<int32_t>(std::min<int64_t>(
                255, (65536 / kernel.getThreads()) / 8 * 8))));
      gfunc->setAttr("motif.kernel", kernel.getSymNameAttr());
      gfunc->setAttr("motif.function", b.getStringAttr(func.getName()));
      // What the kernel keeps in registers, for the manifest and for
      // motif-compile's spill warning: "<value> (<type>): <N> per thread".
      SmallVector<Attribute> registerValues;
      int64_t largestRegisterValue = 0;
      kernel.getBodyBlock().walk([&](MaterializeOp m) {
        if (m.getResidency() != Residency::Register)
          return;
        // A constant or a recomputed value: its readers make it.
        int64_t slots = registerSlotsOf(m, kernel.getThreads());
        std::string text;
        llvm::raw_string_ostream os(text);
        if (auto was = m->getAttrOfType<StringAttr>("motif.producer"))
          os << was.getValue();
        else
          os << "a value";
        if (isRecomputed(m)) {
          os << " (" << m.getType() << "): recomputed by its readers";
          registerValues.push_back(mb.getStringAttr(text));
          return;
        }
        int64_t tail = std::min<int64_t>(m.getSharedTail().value_or(0), slots);
        os << " (" << m.getType() << "): " << slots - tail << " per thread";
        if (tail)
          os << " (and " << tail << " in its shared tail)";
        registerValues.push_back(mb.getStringAttr(text));
        largestRegisterValue = std::max(largestRegisterValue, slots - tail);
      });
      if (!registerValues.empty()) {
        gfunc->setAttr("motif.register_values",
                       mb.getArrayAttr(registerValues));
        gfunc->setAttr("motif.largest_register_value",
                       mb.getI64IntegerAttr(largestRegisterValue));
      }
      return gfunc;
    };
    gpu::GPUFuncOp gfunc = makeFunction();

    // Shared memory is static (workgroup attributions) up to the 48 KiB a
    // block may declare statically; past that the kernel is emitted again
    // with views of dynamic shared memory, sized at launch (the runtime
    // opts the function in: docs/abi.md).
    int64_t dynamicSharedBytes = 0;
    // grid-group=-1 (auto): 8 where a contraction runs on wgmma. Measured on
    // the H200, linear_bf16 8192^3: 1.491 - 1.505 ms against 1.617 - 1.623
    // row-major; the mma.sync GEMMs (gemm_bf16_w8 / gemm_f16_w8) gained
    // nothing and spilled 4 bytes at 255 registers (docs/results/
    // gemm-grid-group.txt).
    int64_t group = gridGroup;
    if (group < 0) {
      bool wgmma = false;
      kernel.getBodyBlock().walk([&](ContractOp c) {
        if (std::optional<MmaShape> s = c.getMma())
          wgmma |= isWgmma(*s);
      });
      group = wgmma && chip == "sm_90a" ? 8 : 0;
    }
    // The pass's options, on each emitter of this kernel (static, then
    // dynamic shared memory).
    auto configure = [&](KernelEmitter &emitter) {
      if (!perRow)
        emitter.groupBlocks(group);
      emitter.chip = chip;
      emitter.wgmmaInFlight = wgmmaInFlight;
      emitter.mmaFragmentPipeline = mmaFragmentPipeline;
      emitter.onlineWgmma = onlineWgmma;
      emitter.onlineWgmmaPV = *parseAutoChoice(onlineWgmmaPV);
      emitter.onlineOverlap = *parseAutoChoice(onlineOverlap);
      emitter.onlinePingpong = *parseAutoChoice(onlinePingpong);
      emitter.onlineMbarrier = *parseAutoChoice(onlineMbarrier);
      emitter.clusterPush = clusterPush;
      emitter.clusterMbarrier = clusterMbarrier;
      emitter.onlinePRegisters = onlinePRegisters;
    };
    {
      KernelEmitter emitter(kernel, gfunc, gridSize, inputs, grid,
                            /*dynamicShared=*/false, reverseRereads,
                            groupStores, cluster);
      configure(emitter);
      if (failed(emitter.emit()))
        return failure();
      dynamicSharedBytes = emitter.sharedBytes();
    }
    if (dynamicSharedBytes > kStaticSharedLimit) {
      if (dynamicSharedBytes > kDynamicSharedLimit)
        return kernel.emitOpError()
               << "needs " << dynamicSharedBytes
               << " bytes of shared memory, over the " << kDynamicSharedLimit
               << " B a block may use on any supported chip";
      // A fresh body: keep the function, drop what the first emission put
      // in it (the attributions go with the block's arguments).
      kernels.erase(gfunc);
      gfunc = makeFunction();
      // gpu.dynamic_shared_memory reuses a zero-sized workgroup global
      // aligned to 16; a public one becomes `.extern .shared .align 16 .b8
      // x[]` (its own would be a 1-byte static `.shared` symbol that the
      // views would run past).
      bool declared = llvm::any_of(
          gpuModule.getBody()->getOps<memref::GlobalOp>(),
          [](memref::GlobalOp g) {
            return g.getType().getNumElements() == 0 && g.getAlignment() &&
                   *g.getAlignment() == SharedLayout::kAlignment;
          });
      if (!declared) {
        OpBuilder gb(gpuModule.getBodyRegion());
        gb.setInsertionPointToStart(gpuModule.getBody());
        auto type = MemRefType::get(
            {0}, gb.getI8Type(), nullptr,
            gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
        auto global = memref::GlobalOp::create(
            gb, loc, "motif_dynamic_shared", /*sym_visibility=*/nullptr, type,
            /*initial_value=*/nullptr, /*constant=*/false,
            gb.getI64IntegerAttr(SharedLayout::kAlignment));
        kernels.insert(global);
      }
      KernelEmitter emitter(kernel, gfunc, gridSize, inputs, grid,
                            /*dynamicShared=*/true, reverseRereads,
                            groupStores, cluster);
      configure(emitter);
      if (failed(emitter.emit()))
        return failure();
      dynamicSharedBytes = emitter.sharedBytes();
    } else {
      dynamicSharedBytes = 0;
    }

    auto dim3 = [&](Value x) {
      return gpu::KernelDim3{x, arith::ConstantIndexOp::create(b, loc, 1),
                             arith::ConstantIndexOp::create(b, loc, 1)};
    };
    auto constant = [&](int64_t x) -> Value {
      return arith::ConstantIndexOp::create(b, loc, x);
    };
    Value gridX = constant(gridSize * cluster);
    if (perRow)
      gridX = gridSize * cluster == 1
                  ? rows
                  : Value(arith::MulIOp::create(b, loc, rows, gridX));
    Value dynamicShared;
    if (dynamicSharedBytes)
      dynamicShared = arith::ConstantIntOp::create(
          b, loc, static_cast<int32_t>(dynamicSharedBytes), 32);
    gpu::LaunchFuncOp::create(b, kernel.getLoc(), gfunc, dim3(gridX),
                              dim3(constant(ctaThreads)),
                              dynamicShared, args);
  }
  for (Value a : allocs)
    memref::DeallocOp::create(b, loc, a);
  func::ReturnOp::create(b, loc);

  StringAttr name = func.getNameAttr();
  func.erase();
  host.setName(name);
  return success();
}

void ConvertMotifToGPUPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Kernels run as a function's straight-line sequence of launches; one
  // anywhere else (inside scf.for, a nested region) is not lowered, and is
  // never skipped silently.
  WalkResult misplaced = module.walk([&](KernelOp kernel) {
    auto func = dyn_cast<func::FuncOp>(kernel->getParentOp());
    if (func && kernel->getBlock() == &func.getBody().front() &&
        func->getParentOp() == module.getOperation())
      return WalkResult::advance();
    if (func && func->getParentOp() != module.getOperation())
      kernel.emitOpError()
          << "is in a function of a nested module: the lowering converts the "
             "functions of the top-level module only";
    else
      kernel.emitOpError()
          << "is nested in '" << kernel->getParentOp()->getName()
          << "': the lowering launches kernels only from the body of a "
             "func.func";
    return WalkResult::interrupt();
  });
  if (misplaced.wasInterrupted())
    return signalPassFailure();
  // Kernels already in the gpu form go down the same pipeline: a launch
  // bound the NVPTX backend cannot take (it fails with an unlocated fatal
  // error on a non-positive nvvm.maxntid) is a located error here.
  WalkResult badBounds = module.walk([&](gpu::GPUFuncOp f) {
    for (auto [what, sizes] :
         {std::pair{"known_block_size", f.getKnownBlockSize()},
          std::pair{"known_grid_size", f.getKnownGridSize()}}) {
      if (!sizes)
        continue;
      for (int32_t v : *sizes)
        if (v < 1) {
          f.emitOpError() << what << " holds " << v
                          << "; every size must be at least 1";
          return WalkResult::interrupt();
        }
    }
    return WalkResult::advance();
  });
  if (badBounds.wasInterrupted())
    return signalPassFailure();
  SmallVector<func::FuncOp> funcs;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal() && !f.getOps<KernelOp>().empty())
      funcs.push_back(f);
  if (funcs.empty())
    return;
  MLIRContext *ctx = &getContext();
  if (SymbolTable::lookupSymbolIn(module, kGpuModuleName)) {
    module.emitError() << "already holds a symbol '" << kGpuModuleName << "'";
    return signalPassFailure();
  }
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(ctx));
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(), kGpuModuleName);
  SymbolTable kernels(gpuModule);
  for (func::FuncOp f : funcs)
    if (failed(convertFunction(f, gpuModule, kernels)))
      return signalPassFailure();
}
