//===- MotifInterfaces.td - the iteration-space interface --*- tablegen -*-===//
#ifndef MOTIF_INTERFACES_TD
#define MOTIF_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Motif_ComputeOpInterface : OpInterface<"ComputeOpInterface"> {
  let cppNamespace = "::mlir::motif";
  let description = [{
    Every execution motif is described by one iteration space: extents
    E[0..n), a level (block/warp/lane/thread/seq) per iteration dim, and for
    every tensor operand and for the results, which iteration dim indexes
    each of their dims. Iteration dims that index no result are reduction
    (or contraction) dims. Analyses, the reference evaluator and the
    lowering only see motifs through this interface.
  }];
  let methods = [
    InterfaceMethod<"Extents of the iteration dims.",
      "::llvm::SmallVector<int64_t>", "getIterationExtents">,
    InterfaceMethod<"For each dim of tensor operand `i`, its iteration dim.",
      "::llvm::SmallVector<int64_t>", "getOperandIterationDims", (ins "unsigned":$i)>,
    InterfaceMethod<"For each dim of the results (all alike), its iteration dim.",
      "::llvm::SmallVector<int64_t>", "getResultIterationDims">,
    InterfaceMethod<"The level of every iteration dim.",
      "::mlir::ArrayAttr", "getMapping">,
  ];
  let extraSharedClassDeclaration = [{
    /// The level of iteration dim `d`; for a tile nest, its widest kind:
    /// `thread` when it has a thread or warp sub-level, else `block` when it
    /// has a block sub-level, else `seq` (getTile gives the nest).
    ::mlir::motif::Level getLevel(unsigned d) {
      ::mlir::Attribute a = $_op.getMapping()[d];
      if (auto level = ::llvm::dyn_cast<::mlir::motif::LevelAttr>(a))
        return level.getValue();
      auto tile = ::llvm::cast<::mlir::motif::TileAttr>(a);
      if (tile.hasLevel(::mlir::motif::Level::Thread) ||
          tile.hasLevel(::mlir::motif::Level::Warp))
        return ::mlir::motif::Level::Thread;
      if (tile.hasLevel(::mlir::motif::Level::Block))
        return ::mlir::motif::Level::Block;
      return ::mlir::motif::Level::Seq;
    }
    /// The tile nest of iteration dim `d`, or null for a single level.
    ::mlir::motif::TileAttr getTile(unsigned d) {
      return ::llvm::dyn_cast<::mlir::motif::TileAttr>($_op.getMapping()[d]);
    }
    /// Whether any iteration dim is split over a tile nest.
    bool isTiled() {
      for (::mlir::Attribute a : $_op.getMapping())
        if (::llvm::isa<::mlir::motif::TileAttr>(a))
          return true;
      return false;
    }
    /// The motif's grid: for every iteration dim mapped to `block` its
    /// extent (a tile nest: its block sub-level's size), for every `block.warp` dim its extent over the warps of a
    /// block (rounded up), in iteration order.
    ::llvm::SmallVector<int64_t> getGridExtents() {
      ::llvm::SmallVector<int64_t> extents = $_op.getIterationExtents();
      ::llvm::SmallVector<int64_t> out;
      int64_t warps = ::mlir::motif::warpsPerBlockOf($_op.getOperation());
      for (unsigned d = 0, e = extents.size(); d < e; ++d) {
        if (::mlir::motif::TileAttr tile = getTile(d)) {
          if (std::optional<int64_t> s = tile.getBlockSize(extents[d]))
            out.push_back(*s);
          continue;
        }
        if (getLevel(d) == ::mlir::motif::Level::Block)
          out.push_back(extents[d]);
        else if (getLevel(d) == ::mlir::motif::Level::BlockWarp)
          out.push_back((extents[d] + warps - 1) / warps);
      }
      return out;
    }
    /// Iteration dims that index no result (reduced or contracted).
    ::llvm::SmallVector<int64_t> getReductionIterationDims() {
      ::llvm::SmallVector<int64_t> res = $_op.getResultIterationDims();
      ::llvm::SmallVector<int64_t> out;
      for (int64_t d = 0, e = $_op.getIterationExtents().size(); d < e; ++d)
        if (!::llvm::is_contained(res, d))
          out.push_back(d);
      return out;
    }
  }];
}

#endif // MOTIF_INTERFACES_TD
