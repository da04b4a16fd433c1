//===- Manifest.cpp - The compile manifest and C header of docs/abi.md ----===//
//
// Reads a host function of the lowered form (docs/abi.md, last section):
// func arguments tagged motif.buffer/motif.role, memref.alloc intermediates
// tagged motif.buffer, gpu.launch_func in order with constant geometry.
// Writes the JSON manifest (version 1) and the C header from what it read.
//
//===----------------------------------------------------------------------===//

#include "motif/Driver/Manifest.h"
#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace mlir {
namespace motif {
namespace driver {

namespace {

constexpr StringLiteral kBufferAttr = "motif.buffer";
constexpr StringLiteral kRoleAttr = "motif.role";
constexpr StringLiteral kKernelAttr = "motif.kernel";
/// The most dynamic shared memory per block of any supported chip.
constexpr int64_t kMaxDynamicSharedBytes = 232448;

/// dtype name and element size for the element types the ABI allows.
std::optional<std::pair<StringRef, int64_t>> dtypeOf(Type element) {
  if (element.isF32())
    return std::make_pair(StringRef("f32"), int64_t(4));
  if (element.isF16())
    return std::make_pair(StringRef("f16"), int64_t(2));
  if (element.isBF16())
    return std::make_pair(StringRef("bf16"), int64_t(2));
  return std::nullopt;
}

/// Shape, dtype and size of a buffer of type `type`; a located error when the
/// type is not a static, row-major memref of f32, f16 or bf16.
LogicalResult describeBuffer(Location loc, StringRef name, Type type,
                             BufferInfo &info) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return emitError(loc) << "buffer '" << name
                          << "' must be a memref, got " << type;
  if (!hasStaticTrailingDims(memref))
    return emitError(loc) << "buffer '" << name << "' has a dynamic shape ("
                          << type
                          << "); the kernel ABI needs static shapes, but for "
                             "a leading runtime row count";
  if (!memref.getLayout().isIdentity())
    return emitError(loc) << "buffer '" << name << "' is not row-major "
                          << "contiguous (" << type << ")";
  std::optional<std::pair<StringRef, int64_t>> dtype =
      dtypeOf(memref.getElementType());
  if (!dtype)
    return emitError(loc) << "buffer '" << name << "' has element type "
                          << memref.getElementType()
                          << "; the kernel ABI supports f32, f16 and bf16 only";
  info.name = name.str();
  info.dtype = dtype->first.str();
  info.shape.assign(memref.getShape().begin(), memref.getShape().end());
  // A rank-0 buffer has one element; the manifest lists it as shape [1].
  if (info.shape.empty())
    info.shape.push_back(1);
  info.dynamicRows = hasDynamicRows(memref);
  if (info.dynamicRows)
    info.shape.front() = -1;
  // Checked: a wrapped product would be written as a wrong (even negative)
  // size into the manifest and the header. Per row for a row count.
  std::optional<int64_t> numel = 1;
  for (int64_t extent : ArrayRef(info.shape).drop_front(info.dynamicRows))
    if (numel)
      numel = checkedMul(*numel, extent);
  std::optional<int64_t> bytes =
      numel ? checkedMul(*numel, dtype->second) : std::nullopt;
  if (!bytes)
    return emitError(loc) << "buffer '" << name << "' (" << type
                          << ") is too large: its size in bytes overflows a "
                             "64-bit integer";
  info.numel = *numel;
  info.bytes = *bytes;
  return success();
}

/// The three constant sizes of a launch dimension, or a located error.
/// `limits` are CUDA's per-dimension maxima (the same on every chip since
/// sm_30): what the header's `unsigned grid[3], block[3]` and cuLaunchKernel
/// can take.
LogicalResult constantDim3(gpu::LaunchFuncOp launch, gpu::KernelDim3 dims,
                           StringRef what, const std::array<int64_t, 3> &limits,
                           std::array<int64_t, 3> &out, bool skipX = false) {
  Value values[3] = {dims.x, dims.y, dims.z};
  for (int i = skipX ? 1 : 0; i < 3; ++i) {
    APInt value;
    if (!matchPattern(values[i], m_ConstantInt(&value)))
      return launch.emitError()
             << what << " size " << "xyz"[i]
             << " is not a constant; motif-compile needs static launch "
                "geometry (arith.constant operands)";
    std::string text = toString(value, 10, /*Signed=*/true);
    if (value.isNonPositive())
      return launch.emitError() << what << " size " << "xyz"[i] << " is "
                                << text << "; must be >= 1";
    if (value.getSignificantBits() > 64 || value.getSExtValue() > limits[i])
      return launch.emitError()
             << what << " size " << "xyz"[i] << " is " << text
             << "; CUDA allows at most " << limits[i];
    out[i] = value.getSExtValue();
  }
  return success();
}

/// Compares launch geometry with the kernel's known_{grid,block}_size.
LogicalResult checkKnownSize(gpu::LaunchFuncOp launch, gpu::GPUFuncOp kernel,
                             std::optional<ArrayRef<int32_t>> known,
                             StringRef what, const std::array<int64_t, 3> &got) {
  if (!known || known->size() != 3)
    return success();
  for (int i = 0; i < 3; ++i)
    if ((*known)[i] != got[i])
      return launch.emitError()
             << what << " size (" << got[0] << ", " << got[1] << ", "
             << got[2] << ") differs from the known_" << what
             << "_size of @" << kernel.getName() << " (" << (*known)[0]
             << ", " << (*known)[1] << ", " << (*known)[2] << ")";
  return success();
}

std::string cString(StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string upper(StringRef s) { return s.upper(); }

} // namespace

std::string sanitizeIdentifier(StringRef name) {
  std::string out;
  for (char c : name)
    out += (isAlnum(c) || c == '_') ? c : '_';
  if (out.empty() || isDigit(out.front()))
    out.insert(out.begin(), '_');
  return out;
}

FailureOr<FunctionManifest> collectManifest(func::FuncOp host) {
  FunctionManifest manifest;
  manifest.function = host.getSymName().str();
  if (host.isExternal())
    return host.emitError() << "host function @" << host.getSymName()
                            << " has no body";

  SmallVector<BufferInfo> inputs, intermediates, outputs;
  DenseMap<Value, std::string> bufferOf;
  StringSet<> names;
  auto addName = [&](Location loc, StringRef name) -> LogicalResult {
    if (!names.insert(name).second)
      return emitError(loc) << "duplicate buffer name '" << name << "'";
    return success();
  };

  // Arguments: inputs, then outputs (destination-passing style).
  for (BlockArgument arg : host.getArguments()) {
    unsigned i = arg.getArgNumber();
    Location loc = arg.getLoc();
    auto name = host.getArgAttrOfType<StringAttr>(i, kBufferAttr);
    auto role = host.getArgAttrOfType<StringAttr>(i, kRoleAttr);
    if (!name || name.getValue().empty())
      return emitError(loc) << "argument #" << i << " of host function @"
                            << host.getSymName()
                            << " has no 'motif.buffer' name";
    if (!role || (role.getValue() != "input" && role.getValue() != "output"))
      return emitError(loc) << "argument #" << i << " ('" << name.getValue()
                            << "') needs motif.role = \"input\" or "
                               "\"output\"";
    BufferInfo info;
    info.role = role.getValue().str();
    if (failed(describeBuffer(loc, name.getValue(), arg.getType(), info)) ||
        failed(addName(loc, name.getValue())))
      return failure();
    bufferOf[arg] = info.name;
    (info.role == "input" ? inputs : outputs).push_back(std::move(info));
  }

  // Intermediates: tagged allocations, in program order.
  WalkResult walked = host.walk([&](memref::AllocOp alloc) {
    auto name = alloc->getAttrOfType<StringAttr>(kBufferAttr);
    if (!name)
      return WalkResult::advance();
    BufferInfo info;
    info.role = "intermediate";
    if (failed(describeBuffer(alloc.getLoc(), name.getValue(), alloc.getType(),
                              info)) ||
        failed(addName(alloc.getLoc(), name.getValue())))
      return WalkResult::interrupt();
    bufferOf[alloc.getResult()] = info.name;
    intermediates.push_back(std::move(info));
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();

  // Kernels, in launch order.
  walked = host.walk([&](gpu::LaunchFuncOp launch) {
    if (launch->getParentOp() != host.getOperation())
      return launch.emitError()
                 << "launch inside a region; motif-compile supports "
                    "straight-line host functions only",
             WalkResult::interrupt();
    auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        launch, launch.getKernelAttr());
    if (!kernel)
      return launch.emitError() << "launches " << launch.getKernelAttr()
                                << ", which is no gpu.func",
             WalkResult::interrupt();
    if (launch.hasClusterSize())
      return launch.emitError() << "thread block clusters are not supported",
             WalkResult::interrupt();
    int64_t dynamicShared = 0;
    if (Value dyn = launch.getDynamicSharedMemorySize()) {
      APInt bytes;
      if (!matchPattern(dyn, m_ConstantInt(&bytes)))
        return launch.emitError()
                   << "dynamic shared memory size is not a constant (the "
                      "kernel ABI launches with a fixed size)",
               WalkResult::interrupt();
      if (bytes.isNegative() || bytes.getSExtValue() > kMaxDynamicSharedBytes)
        return launch.emitError()
                   << "dynamic shared memory size " << bytes.getSExtValue()
                   << " is outside [0, " << kMaxDynamicSharedBytes << "]",
               WalkResult::interrupt();
      dynamicShared = bytes.getSExtValue();
    }
    KernelInfo info;
    info.dynamicSharedBytes = dynamicShared;
    info.name = launch.getKernelName().str();
    if (auto motifKernel = kernel->getAttrOfType<StringAttr>(kKernelAttr))
      info.motifKernel = motifKernel.getValue().str();
    if (auto values = kernel->getAttrOfType<ArrayAttr>("motif.register_values"))
      for (auto v : values.getAsRange<StringAttr>())
        info.registerValues.push_back(v.getValue().str());
    if (auto slots =
            kernel->getAttrOfType<IntegerAttr>("motif.largest_register_value"))
      info.largestRegisterValue = slots.getInt();
    // docs/abi.md: no two buffers overlap, and kernels assume it
    // (llvm.noalias): one buffer passed twice to noalias parameters would
    // compile to a kernel that is wrong for it.
    DenseMap<Value, unsigned> firstUse;
    for (auto [index, operand] : llvm::enumerate(launch.getKernelOperands())) {
      auto [prior, inserted] = firstUse.try_emplace(operand, index);
      if (!inserted && index < kernel.getNumArguments() &&
          (kernel.getArgAttr(prior->second, "llvm.noalias") ||
           kernel.getArgAttr(index, "llvm.noalias")))
        return launch.emitError()
                   << "kernel operands #" << prior->second << " and #" << index
                   << " are the same buffer, but @" << kernel.getName()
                   << " declares its parameters llvm.noalias (no two buffers "
                      "of a launch may overlap)",
               WalkResult::interrupt();
      // A runtime row count reaches the kernel as its static bound.
      Value buffer = operand;
      if (auto cast = buffer.getDefiningOp<memref::CastOp>())
        buffer = cast.getSource();
      auto it = bufferOf.find(buffer);
      if (it == bufferOf.end())
        return launch.emitError()
                   << "kernel operand #" << index
                   << " is neither a host function argument nor a "
                      "memref.alloc tagged 'motif.buffer'",
               WalkResult::interrupt();
      info.params.push_back(it->second);
    }
    // A grid over the runtime row count: x is `memref.dim %buffer, 0`
    // (times the kernel's blocks per row), y and z constants.
    gpu::KernelDim3 gridDims = launch.getGridSizeOperandValues();
    if (auto perRow =
            kernel->getAttrOfType<IntegerAttr>("motif.blocks_per_row")) {
      Value x = gridDims.x;
      APInt factor(64, 1);
      if (auto mul = x.getDefiningOp<arith::MulIOp>()) {
        if (!matchPattern(mul.getRhs(), m_ConstantInt(&factor)))
          factor = APInt(64, 0);
        x = mul.getLhs();
      }
      auto dim = x.getDefiningOp<memref::DimOp>();
      std::optional<int64_t> index =
          dim ? dim.getConstantIndex() : std::nullopt;
      if (!dim || !index || *index != 0 || !hasDynamicRows(dim.getSource().getType()) ||
          factor.getSExtValue() != perRow.getInt() || perRow.getInt() < 1)
        return launch.emitError()
                   << "grid size x of @" << kernel.getName()
                   << " (motif.blocks_per_row = " << perRow.getInt()
                   << ") is not the row count times " << perRow.getInt()
                   << " (memref.dim of a buffer's leading dim)",
               WalkResult::interrupt();
      info.gridPerRow = true;
      info.grid[0] = perRow.getInt();
    }
    if (failed(constantDim3(launch, gridDims, "grid",
                            {int64_t(INT32_MAX), 65535, 65535}, info.grid,
                            info.gridPerRow)) ||
        failed(constantDim3(launch, launch.getBlockSizeOperandValues(),
                            "block", {1024, 1024, 64}, info.block)) ||
        failed(checkKnownSize(launch, kernel, kernel.getKnownGridSize(),
                              "grid", info.grid)) ||
        failed(checkKnownSize(launch, kernel, kernel.getKnownBlockSize(),
                              "block", info.block)))
      return WalkResult::interrupt();
    if (auto dims = kernel->getAttrOfType<DenseI32ArrayAttr>(
            NVVM::NVVMDialect::getClusterDimAttrName())) {
      if (dims.size() != 3 || dims[0] < 1 || dims[1] != 1 || dims[2] != 1 ||
          info.grid[0] % dims[0])
        return launch.emitError()
                   << "cluster dims of @" << kernel.getName()
                   << " are not (k, 1, 1) with k dividing grid x "
                   << info.grid[0],
               WalkResult::interrupt();
      info.cluster = dims[0];
    }
    // Each extent is at most 1024 (checked above): the product cannot wrap.
    int64_t threads = info.block[0] * info.block[1] * info.block[2];
    if (threads > 1024)
      return launch.emitError() << "block of " << threads
                                << " threads; at most 1024",
             WalkResult::interrupt();
    manifest.kernels.push_back(std::move(info));
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  if (manifest.kernels.empty())
    return host.emitError() << "host function @" << host.getSymName()
                            << " launches no kernel (no gpu.launch_func)";
  if (outputs.empty())
    return host.emitError() << "host function @" << host.getSymName()
                            << " has no output buffer (an argument with "
                               "motif.role = \"output\")";

  bool dynamic = false;
  for (const auto &list : {inputs, intermediates, outputs})
    for (const BufferInfo &b : list)
      dynamic |= b.dynamicRows;
  if (dynamic) {
    auto maxRows = host->getAttrOfType<IntegerAttr>("motif.max_rows");
    if (!maxRows || maxRows.getInt() < 1)
      return host.emitError()
             << "host function @" << host.getSymName()
             << " has buffers with a runtime row count but no positive "
                "'motif.max_rows'";
    manifest.maxRows = maxRows.getInt();
  }
  llvm::append_range(manifest.buffers, inputs);
  llvm::append_range(manifest.buffers, intermediates);
  llvm::append_range(manifest.buffers, outputs);
  return manifest;
}

LogicalResult attachPtxasReport(FunctionManifest &manifest,
                                const ::motif::sass::PtxasReport &report,
                                std::string &error) {
  for (KernelInfo &kernel : manifest.kernels) {
    auto it = report.find(kernel.name);
    if (it == report.end()) {
      error = "the ptxas report has no entry for kernel '" + kernel.name + "'";
      return failure();
    }
    kernel.resources = it->second;
  }
  return success();
}

namespace {

/// `[a, b, c]` on one line: short arrays stay readable (and greppable) in the
/// otherwise indented manifest.
template <typename Range>
std::string inlineArray(const Range &values) {
  std::string text = "[";
  raw_string_ostream os(text);
  llvm::interleave(
      values, os, [&](const auto &v) { os << json::Value(v); }, ", ");
  os << "]";
  return text;
}

} // namespace

void writeManifestJson(const FunctionManifest &m, raw_ostream &os) {
  json::OStream j(os, /*IndentSize=*/2);
  auto optionalFile = [&](StringRef key, const std::string &file) {
    if (file.empty())
      j.attribute(key, nullptr);
    else
      j.attribute(key, file);
  };
  auto count = [&](StringRef key, std::optional<uint64_t> value) {
    if (value)
      j.attribute(key, static_cast<int64_t>(*value));
    else
      j.attribute(key, nullptr);
  };
  j.object([&] {
    j.attribute("motif_manifest_version", 1);
    j.attribute("function", m.function);
    j.attribute("source", m.source);
    j.attribute("chip", m.chip);
    optionalFile("ptx", m.ptxFile);
    optionalFile("cubin", m.cubinFile);
    optionalFile("sass", m.sassFile);
    optionalFile("ptxas_report", m.ptxasReportFile);
    j.attributeArray("buffers", [&] {
      for (const BufferInfo &b : m.buffers)
        j.object([&] {
          j.attribute("name", b.name);
          j.attribute("role", b.role);
          j.attribute("dtype", b.dtype);
          j.attributeBegin("shape");
          if (b.dynamicRows) {
            // The row count is null: known at launch.
            std::string text = "[null";
            for (int64_t e : ArrayRef(b.shape).drop_front())
              text += ", " + std::to_string(e);
            j.rawValue(text + "]");
          } else {
            j.rawValue(inlineArray(b.shape));
          }
          j.attributeEnd();
          if (b.dynamicRows) {
            j.attribute("bytes", nullptr);
            j.attribute("row_bytes", b.bytes);
          } else {
            j.attribute("bytes", b.bytes);
          }
        });
    });
    j.attributeArray("kernels", [&] {
      for (const KernelInfo &k : m.kernels)
        j.object([&] {
          j.attribute("name", k.name);
          if (!k.motifKernel.empty())
            j.attribute("motif_kernel", k.motifKernel);
          for (auto [key, text] :
               {std::pair{"params", inlineArray(k.params)},
                std::pair{"grid", inlineArray(k.grid)},
                std::pair{"block", inlineArray(k.block)}}) {
            j.attributeBegin(key);
            j.rawValue(text);
            j.attributeEnd();
          }
          // Only a cluster kernel says it (a plain launch forms the
          // clusters: .reqnctapercluster).
          if (k.cluster > 1) {
            j.attributeBegin("cluster");
            j.rawValue(inlineArray(std::array<int64_t, 3>{k.cluster, 1, 1}));
            j.attributeEnd();
          }
          const ::motif::sass::KernelResources *r =
              k.resources ? &*k.resources : nullptr;
          count("shared_bytes", r ? r->sharedBytes : std::nullopt);
          count("registers", r ? r->registers : std::nullopt);
          count("spill_store_bytes", r ? r->spillStoreBytes : std::nullopt);
          count("spill_load_bytes", r ? r->spillLoadBytes : std::nullopt);
          count("barriers", r ? r->barriers : std::nullopt);
          count("stack_frame_bytes", r ? r->stackFrameBytes : std::nullopt);
          j.attribute("dynamic_shared_bytes", k.dynamicSharedBytes);
          j.attributeArray("register_values", [&] {
            for (const std::string &v : k.registerValues)
              j.value(v);
          });
          if (m.maxRows)
            j.attribute("grid_per_row", k.gridPerRow);
        });
    });
    if (m.maxRows)
      j.attribute("max_rows", *m.maxRows);
  });
  os << "\n";
}

void writeHeader(const FunctionManifest &m, raw_ostream &os) {
  std::string id = sanitizeIdentifier(m.function);
  std::string lower = "motif_" + id;
  std::string macro = "MOTIF_" + upper(id);

  // One macro suffix per buffer; a clash (e.g. "a.b" and "a_b") gets the
  // buffer's index appended.
  SmallVector<std::string> bufferMacro;
  StringSet<> taken;
  for (auto [i, b] : llvm::enumerate(m.buffers)) {
    std::string name = upper(sanitizeIdentifier(b.name));
    if (!taken.insert(name).second) {
      name += "_" + std::to_string(i);
      taken.insert(name);
    }
    bufferMacro.push_back(name);
  }
  DenseMap<StringRef, unsigned> bufferIndex;
  for (auto [i, b] : llvm::enumerate(m.buffers))
    bufferIndex[b.name] = i;
  size_t maxParams = 1;
  for (const KernelInfo &k : m.kernels)
    maxParams = std::max(maxParams, k.params.size());

  os << "/* Generated by motif-compile from " << m.source << ": @"
     << m.function << " for " << m.chip << ". Do not edit.\n"
     << " *\n"
     << " * Kernel ABI (docs/abi.md): every kernel parameter is a device "
        "pointer to one\n"
     << " * buffer below (row-major, contiguous); kernels run in order on one "
        "stream;\n"
     << " * shared memory is static. Plain C and C++ (nvcc, g++, gcc).\n"
     << " *\n"
     << " * The launch helper " << lower
     << "_launch needs the CUDA driver API: this header\n"
     << " * includes <cuda.h> unless MOTIF_NO_CUDA_DRIVER is defined (then "
        "only the\n"
     << " * descriptions are declared). Link with -lcuda "
        "(CMake: CUDA::cuda_driver).\n"
     << " */\n";
  os << "#ifndef " << macro << "_MOTIF_H\n#define " << macro << "_MOTIF_H\n\n";
  os << "#include <stddef.h>\n\n";
  os << "#ifndef MOTIF_ABI_V2_TYPES\n#define MOTIF_ABI_V2_TYPES\n"
     << "/* A device buffer; each kernel parameter points to one. */\n"
     << "typedef struct motif_buffer_desc {\n"
     << "  const char *name;        /* as in the manifest */\n"
     << "  const char *role;        /* \"input\", \"intermediate\" or "
        "\"output\" */\n"
     << "  const char *dtype;       /* \"f32\", \"f16\" or \"bf16\" */\n"
     << "  unsigned rank;\n"
     << "  const long long *shape;  /* rank extents, row-major; -1: the "
        "runtime row count */\n"
     << "  size_t bytes;            /* per row when shape[0] is -1 */\n"
     << "} motif_buffer_desc;\n"
     << "/* A kernel launch, in launch order. */\n"
     << "typedef struct motif_kernel_desc {\n"
     << "  const char *name;        /* PTX entry (cuModuleGetFunction) */\n"
     << "  unsigned num_params;\n"
     << "  const unsigned *params;  /* buffer indices, parameter order */\n"
     << "  unsigned grid[3];\n"
     << "  unsigned block[3];\n"
     << "  unsigned dynamic_shared_bytes; /* launch size; over 48 KiB the "
        "function\n"
     << "                                   * is opted in (the launch helper "
        "does it) */\n"
     << "} motif_kernel_desc;\n"
     << "#endif /* MOTIF_ABI_V2_TYPES */\n\n";

  os << "#define " << macro << "_FUNCTION " << cString(m.function) << "\n";
  os << "#define " << macro << "_CHIP " << cString(m.chip) << "\n";
  if (!m.ptxFile.empty())
    os << "#define " << macro << "_PTX_FILE " << cString(m.ptxFile) << "\n";
  if (!m.cubinFile.empty())
    os << "#define " << macro << "_CUBIN_FILE " << cString(m.cubinFile)
       << "\n";
  unsigned numInputs = 0, numOutputs = 0;
  for (const BufferInfo &b : m.buffers) {
    numInputs += b.role == "input";
    numOutputs += b.role == "output";
  }
  os << "#define " << macro << "_NUM_BUFFERS " << m.buffers.size() << "\n";
  os << "#define " << macro << "_NUM_INPUTS " << numInputs << "\n";
  os << "#define " << macro << "_NUM_OUTPUTS " << numOutputs << "\n";
  os << "#define " << macro << "_NUM_KERNELS " << m.kernels.size() << "\n";
  os << "#define " << macro << "_MAX_PARAMS " << maxParams << "\n";
  if (m.maxRows)
    os << "/* A runtime row count: buffers of shape [-1, ...] have `rows` "
          "rows, given at\n"
       << " * launch, 1 <= rows <= " << macro << "_MAX_ROWS. */\n"
       << "#define " << macro << "_DYNAMIC_ROWS 1\n"
       << "#define " << macro << "_MAX_ROWS " << *m.maxRows << "LL\n";
  os << "\n";

  os << "/* Buffers: BUF_x is the index in " << lower
     << "_buffers and in the launch helper's\n"
     << " * `buffers` array; BYTES_x and NUMEL_x its size. */\n";
  for (auto [i, b] : llvm::enumerate(m.buffers)) {
    int64_t numel = b.numel;
    os << "/* " << b.name << ": " << b.role << " " << b.dtype << " ["
       << llvm::join(llvm::map_range(b.shape,
                                     [](int64_t d) { return std::to_string(d); }),
                     ", ")
       << "] */\n";
    os << "#define " << macro << "_BUF_" << bufferMacro[i] << " " << i << "\n";
    if (b.dynamicRows) {
      // Sizes of a buffer with the runtime row count take it.
      os << "#define " << macro << "_BYTES_" << bufferMacro[i]
         << "(rows) ((size_t)(rows) * " << b.bytes << ")\n";
      os << "#define " << macro << "_NUMEL_" << bufferMacro[i]
         << "(rows) ((size_t)(rows) * " << numel << ")\n";
      continue;
    }
    os << "#define " << macro << "_BYTES_" << bufferMacro[i] << " ((size_t)"
       << b.bytes << ")\n";
    os << "#define " << macro << "_NUMEL_" << bufferMacro[i] << " ((size_t)"
       << numel << ")\n";
  }
  os << "\n";
  for (auto [i, b] : llvm::enumerate(m.buffers)) {
    os << "static const long long " << lower << "_shape_" << i << "["
       << b.shape.size() << "] = {"
       << llvm::join(llvm::map_range(b.shape,
                                     [](int64_t d) { return std::to_string(d); }),
                     ", ")
       << "};\n";
  }
  os << "static const motif_buffer_desc " << lower << "_buffers[" << macro
     << "_NUM_BUFFERS] = {\n";
  for (auto [i, b] : llvm::enumerate(m.buffers))
    os << "  {" << cString(b.name) << ", " << cString(b.role) << ", "
       << cString(b.dtype) << ", " << b.shape.size() << ", " << lower
       << "_shape_" << i << ", " << b.bytes << "},\n";
  os << "};\n\n";

  for (auto [i, k] : llvm::enumerate(m.kernels)) {
    if (k.params.empty())
      continue;
    os << "static const unsigned " << lower << "_params_" << i << "["
       << k.params.size() << "] = {"
       << llvm::join(llvm::map_range(k.params,
                                     [&](const std::string &p) {
                                       return std::to_string(bufferIndex[p]);
                                     }),
                     ", ")
       << "};  /* " << llvm::join(k.params, ", ") << " */\n";
  }
  os << "static const motif_kernel_desc " << lower << "_kernels[" << macro
     << "_NUM_KERNELS] = {\n";
  for (auto [i, k] : llvm::enumerate(m.kernels)) {
    os << "  {" << cString(k.name) << ", " << k.params.size() << ", ";
    if (k.params.empty())
      os << "NULL";
    else
      os << lower << "_params_" << i;
    os << ", {" << k.grid[0] << ", " << k.grid[1] << ", " << k.grid[2]
       << "}, {" << k.block[0] << ", " << k.block[1] << ", " << k.block[2]
       << "}, " << k.dynamicSharedBytes << "},\n";
  }
  os << "};\n";
  for (const KernelInfo &k : m.kernels)
    if (k.cluster > 1)
      os << "/* " << k.name << " runs in thread-block clusters of "
         << k.cluster
         << " CTAs along x (.reqnctapercluster in the PTX: a plain launch "
            "forms them; sm_90+). */\n";
  if (m.maxRows) {
    os << "/* Per kernel: 1 when its grid x is grid[0] times the row count. */\n"
       << "static const unsigned char " << lower << "_grid_per_row[" << macro
       << "_NUM_KERNELS] = {"
       << llvm::join(llvm::map_range(m.kernels,
                                     [](const KernelInfo &k) {
                                       return std::string(k.gridPerRow ? "1"
                                                                       : "0");
                                     }),
                     ", ")
       << "};\n";
  }
  os << "\n";

  os << "#ifndef MOTIF_NO_CUDA_DRIVER\n#include <cuda.h>\n\n"
     << "/* Launches every kernel of @" << m.function
     << " in order on `stream` (asynchronous).\n"
     << " * `module` holds the PTX or cubin (cuModuleLoad, cuModuleLoadData); "
        "`buffers[i]`\n"
     << " * is the device pointer of buffer i (" << macro
     << "_BUF_*), at least " << macro << "_BYTES_* large.\n";
  if (m.maxRows)
    os << " * `rows` is the runtime row count of every [-1, ...] buffer; "
          "outside\n"
       << " * [1, " << macro
       << "_MAX_ROWS] nothing is launched and CUDA_ERROR_INVALID_VALUE "
          "returned.\n";
  os << " * Returns the first failing CUresult, else CUDA_SUCCESS. */\n"
     << "static inline CUresult " << lower
     << "_launch(CUmodule module, const CUdeviceptr *buffers,\n"
     << (m.maxRows ? "    long long rows, CUstream stream) {\n"
                   : "    CUstream stream) {\n")
     << "  unsigned k, p;\n";
  if (m.maxRows)
    os << "  if (rows < 1 || rows > " << macro << "_MAX_ROWS)\n"
       << "    return CUDA_ERROR_INVALID_VALUE;\n";
  os << "  for (k = 0; k < " << macro << "_NUM_KERNELS; ++k) {\n"
     << "    const motif_kernel_desc *kernel = &" << lower << "_kernels[k];\n"
     << "    CUdeviceptr ptrs[" << macro << "_MAX_PARAMS];\n"
     << "    void *args[" << macro << "_MAX_PARAMS];\n"
     << "    CUfunction fn;\n"
     << "    CUresult status = cuModuleGetFunction(&fn, module, "
        "kernel->name);\n"
     << "    if (status != CUDA_SUCCESS)\n"
     << "      return status;\n"
     << "    for (p = 0; p < kernel->num_params; ++p) {\n"
     << "      ptrs[p] = buffers[kernel->params[p]];\n"
     << "      args[p] = &ptrs[p];\n"
     << "    }\n"
     << "    if (kernel->dynamic_shared_bytes > 48 * 1024) {\n"
     << "      status = cuFuncSetAttribute(fn,\n"
     << "          CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,\n"
     << "          (int)kernel->dynamic_shared_bytes);\n"
     << "      if (status != CUDA_SUCCESS)\n"
     << "        return status;\n"
     << "    }\n"
     << (m.maxRows
             ? "    status = cuLaunchKernel(fn,\n"
               "                            kernel->grid[0] * (" +
                   lower + "_grid_per_row[k] ? (unsigned)rows : 1u),\n"
               "                            kernel->grid[1], kernel->grid[2],\n"
             : "    status = cuLaunchKernel(fn, kernel->grid[0], "
               "kernel->grid[1], kernel->grid[2],\n")
     << "                            kernel->block[0], kernel->block[1], "
        "kernel->block[2],\n"
     << "                            kernel->dynamic_shared_bytes, stream, "
        "args, NULL);\n"
     << "    if (status != CUDA_SUCCESS)\n"
     << "      return status;\n"
     << "  }\n"
     << "  return CUDA_SUCCESS;\n"
     << "}\n"
     << "#endif /* MOTIF_NO_CUDA_DRIVER */\n\n";
  os << "#endif /* " << macro << "_MOTIF_H */\n";
}

} // namespace driver
} // namespace motif
} // namespace mlir
