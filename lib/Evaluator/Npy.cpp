//===- Npy.cpp - NumPy .npy files for the evaluator's inputs and outputs --===//
//
// The format (numpy/lib/format.py): "\x93NUMPY", a version, a header length,
// a Python-literal dict {'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), } padded with spaces to a multiple of 64 bytes, then the
// raw data. Only what motif tensors need: little-endian f4/f8, C order.
//
//===----------------------------------------------------------------------===//
#include "motif/Evaluator/Evaluator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace mlir;
using namespace mlir::motif;

static llvm::Error bad(StringRef path, const Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": not a supported .npy file: " + why);
}

llvm::Expected<Buffer> mlir::motif::readNpy(StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return llvm::createStringError(file.getError(),
                                   "cannot read " + path + ": " +
                                       file.getError().message());
  StringRef data = (*file)->getBuffer();
  if (!data.starts_with("\x93NUMPY") || data.size() < 10)
    return bad(path, "no NUMPY magic");
  unsigned major = static_cast<unsigned char>(data[6]);
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = static_cast<unsigned char>(data[8]) |
                (static_cast<unsigned char>(data[9]) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12)
      return bad(path, "truncated header");
    headerLen = 0;
    for (int k = 0; k < 4; ++k)
      headerLen |= size_t(static_cast<unsigned char>(data[8 + k])) << (8 * k);
    offset = 12;
  } else {
    return bad(path, "version " + Twine(major));
  }
  if (offset + headerLen > data.size())
    return bad(path, "truncated header");
  StringRef header = data.substr(offset, headerLen);
  size_t width;
  if (header.contains("'<f4'"))
    width = 4;
  else if (header.contains("'<f8'"))
    width = 8;
  else
    return bad(path, "dtype must be '<f4' or '<f8'");
  if (header.contains("'fortran_order': True"))
    return bad(path, "Fortran order");
  size_t open = header.find("'shape': (");
  if (open == StringRef::npos)
    return bad(path, "no shape");
  size_t close = header.find(')', open);
  StringRef dims = header.slice(open + 10, close);
  Buffer b;
  SmallVector<StringRef> parts;
  dims.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef p : parts) {
    p = p.trim();
    if (p.empty())
      continue;
    int64_t e;
    if (p.getAsInteger(10, e) || e < 0)
      return bad(path, "shape entry '" + p + "'");
    b.shape.push_back(e);
  }
  int64_t n = b.getNumElements();
  StringRef raw = data.drop_front(offset + headerLen);
  if (static_cast<int64_t>(raw.size()) != n * static_cast<int64_t>(width))
    return bad(path, "has " + Twine(raw.size()) + " data bytes for " + Twine(n) +
                         " elements");
  b.data.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    if (width == 4) {
      float f;
      std::memcpy(&f, raw.data() + 4 * i, 4);
      b.data[i] = f;
    } else {
      std::memcpy(&b.data[i], raw.data() + 8 * i, 8);
    }
  }
  return b;
}

llvm::Error mlir::motif::writeNpy(StringRef path, const Buffer &b, bool asFloat32) {
  std::string header = "{'descr': '";
  header += asFloat32 ? "<f4" : "<f8";
  header += "', 'fortran_order': False, 'shape': (";
  for (int64_t e : b.shape)
    header += std::to_string(e) + ", ";
  header += "), }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError(ec, "cannot write " + path + ": " + ec.message());
  os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  for (double v : b.data) {
    if (asFloat32) {
      float f = static_cast<float>(v);
      os.write(reinterpret_cast<const char *>(&f), 4);
    } else {
      os.write(reinterpret_cast<const char *>(&v), 8);
    }
  }
  return llvm::Error::success();
}
