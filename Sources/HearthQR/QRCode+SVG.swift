extension QRCode {
  /// The symbol as an SVG image: dark modules as one path on white, inside the four-module quiet zone that
  /// readers need, scaled to `pixelsPerModule`. It holds no script or style, so a strict content security
  /// policy shows it.
  public func svg(pixelsPerModule: Int = 6, title: String? = nil) -> String {
    let side = size + 8
    var path = ""
    for (row, line) in modules.enumerated() {
      var column = 0
      while column < size {
        guard line[column] else {
          column += 1
          continue
        }
        let start = column
        while column < size && line[column] { column += 1 }
        path += "M\(start + 4) \(row + 4)h\(column - start)v1h-\(column - start)z"
      }
    }
    let label = title.map { "<title>\(Self.escaped($0))</title>" } ?? ""
    return """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(side * pixelsPerModule)" \
      height="\(side * pixelsPerModule)" shape-rendering="crispEdges" role="img">\(label)<rect width="\(side)" \
      height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
      """
  }

  private static func escaped(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
