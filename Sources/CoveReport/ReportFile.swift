import Foundation

/// Writes a report file whole (a temporary name, then a rename: a reader never sees half a page).
public enum ReportFile {
    public static func write(_ data: Data, to path: String) throws(ReportError) {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .unwritable(path: path, reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
        }
    }
}
