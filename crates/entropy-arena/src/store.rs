//! Where game records live on disk: a JSON lines file, optionally kept compressed.
//!
//! A record named `X.jsonl.gz` is stored in two parts: the games of finished matches,
//! gzip-compressed in `X.jsonl.gz` (one gzip member per sitting, so a match extended later
//! appends a member instead of rewriting the file), and the games of the match being played,
//! plain, in `X.jsonl` beside it, so that a match interrupted at any moment loses at most the
//! line being written. [`seal`] moves the plain part into the compressed one when a match
//! ends. A record named `X.jsonl` is plain only, as a person running a match by hand expects,
//! but is read together with an `X.jsonl.gz` beside it where there is one.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

/// The two files of one record: the compressed part and the plain part being written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordPaths {
    /// `X.jsonl.gz`: the games of finished sittings, gzip members one after another.
    pub sealed: PathBuf,
    /// `X.jsonl`: the games written since, one JSON line each.
    pub open: PathBuf,
    /// Whether the record was named by its compressed form, so that it is sealed when done.
    pub compressed: bool,
}

impl RecordPaths {
    /// The parts of the record named `path`, as `X.jsonl.gz` or as `X.jsonl` (any other name
    /// is its own plain part, with `NAME.gz` as the compressed one).
    pub fn new(path: &Path) -> RecordPaths {
        let text = path.as_os_str().to_string_lossy();
        match text.strip_suffix(".gz") {
            Some(open) => RecordPaths {
                sealed: path.to_path_buf(),
                open: PathBuf::from(open),
                compressed: true,
            },
            None => RecordPaths {
                sealed: PathBuf::from(format!("{text}.gz")),
                open: path.to_path_buf(),
                compressed: false,
            },
        }
    }

    /// Whether either part exists.
    pub fn exists(&self) -> bool {
        self.sealed.exists() || self.open.exists()
    }
}

/// The text of a record, compressed part first, then the plain part; `None` where neither
/// part exists. Each part is returned with its path, so that errors can name the file.
pub fn read_parts(path: &Path) -> io::Result<Option<Vec<(PathBuf, String)>>> {
    let paths = RecordPaths::new(path);
    let mut parts = Vec::new();
    if let Some(text) = read_optional(&paths.sealed, true)? {
        parts.push((paths.sealed.clone(), text));
    }
    if let Some(text) = read_optional(&paths.open, false)? {
        parts.push((paths.open.clone(), text));
    }
    Ok((!parts.is_empty()).then_some(parts))
}

/// The whole text of a record (both parts, in order), or an error naming the file when
/// neither part exists. For readers of any kind of game file: a plain file of another format
/// reads as itself.
pub fn read_text(path: &Path) -> io::Result<String> {
    match read_parts(path)? {
        Some(parts) => Ok(parts.into_iter().map(|(_, text)| text).collect()),
        None => Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("{}: no such file", path.display()),
        )),
    }
}

fn read_optional(path: &Path, gzip: bool) -> io::Result<Option<String>> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut text = String::new();
    if gzip {
        MultiGzDecoder::new(file)
            .read_to_string(&mut text)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    } else {
        let mut file = file;
        file.read_to_string(&mut text)?;
    }
    if !text.is_empty() && !text.ends_with('\n') && gzip {
        // A sealed part always ends a line; only the plain part may hold a half-written one.
        text.push('\n');
    }
    Ok(Some(text))
}

/// Opens the plain part of a record for appending, creating it (and its folder) if needed.
pub fn open_for_append(path: &Path) -> io::Result<File> {
    let open = RecordPaths::new(path).open;
    if let Some(dir) = open.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    OpenOptions::new().create(true).append(true).open(open)
}

/// Moves the plain part of a record named in its compressed form into the compressed part
/// (appended as one more gzip member), then removes the plain part. A record named plain, or
/// with no plain part, is left as it is. Safe to interrupt: the plain part is removed only
/// after the compressed one is written and synced, and reading both at that moment would
/// count its games twice only if the removal itself failed, which is reported.
pub fn seal(path: &Path) -> io::Result<()> {
    let paths = RecordPaths::new(path);
    if !paths.compressed {
        return Ok(());
    }
    let text = match fs::read_to_string(&paths.open) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if !text.trim().is_empty() {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&paths.sealed)?;
        let mut encoder = GzEncoder::new(file, Compression::best());
        encoder.write_all(text.as_bytes())?;
        encoder.finish()?.sync_all()?;
    }
    fs::remove_file(&paths.open)
}

/// Replaces the plain part of a record with `text` (through a temporary file, so that an
/// interruption leaves the old part whole).
pub fn rewrite_open(path: &Path, text: &str) -> io::Result<()> {
    let open = RecordPaths::new(path).open;
    let temporary = open.with_extension("jsonl.tmp");
    fs::write(&temporary, text)?;
    fs::rename(&temporary, &open)
}

/// Deletes both parts of a record, where they exist.
pub fn remove(path: &Path) -> io::Result<()> {
    let paths = RecordPaths::new(path);
    for part in [&paths.sealed, &paths.open] {
        match fs::remove_file(part) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("entropy-store-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_record_is_named_by_either_part() {
        let a = RecordPaths::new(Path::new("r/x.jsonl.gz"));
        let b = RecordPaths::new(Path::new("r/x.jsonl"));
        assert_eq!((a.sealed.clone(), a.open.clone()), (b.sealed, b.open));
        assert!(a.compressed && !b.compressed);
        assert_eq!(a.open, PathBuf::from("r/x.jsonl"));
    }

    #[test]
    fn sittings_append_members_and_read_back_in_order() {
        let dir = scratch("sittings");
        let path = dir.join("m.jsonl.gz");
        assert!(read_parts(&path).unwrap().is_none());
        for sitting in 0..3 {
            let mut file = open_for_append(&path).unwrap();
            writeln!(file, "line {sitting}a").unwrap();
            writeln!(file, "line {sitting}b").unwrap();
            drop(file);
            // Before sealing, the plain part is read after the sealed one.
            let text = read_text(&path).unwrap();
            assert!(text.ends_with(&format!("line {sitting}a\nline {sitting}b\n")));
            seal(&path).unwrap();
            assert!(!RecordPaths::new(&path).open.exists());
        }
        let text = read_text(&path).unwrap();
        assert_eq!(text.lines().count(), 6);
        assert!(text.starts_with("line 0a\nline 0b\nline 1a"));
        // Either name reads the whole record; a plain name is never sealed.
        assert_eq!(read_text(&dir.join("m.jsonl")).unwrap(), text);
        let plain = dir.join("p.jsonl");
        fs::write(&plain, "x\n").unwrap();
        seal(&plain).unwrap();
        assert!(plain.exists() && !dir.join("p.jsonl.gz").exists());
        remove(&path).unwrap();
        assert!(!RecordPaths::new(&path).exists());
        fs::remove_dir_all(dir).unwrap();
    }
}
