//! Tabulates the evaluation's per-line features for every 7-cell line key (21 bits: seven cells,
//! three bits each): `line_entries_7.bin`, eight bytes per key ([`line_entry::LineEntry::to_bits`],
//! little-endian), which `src/eval/lines.rs` compiles in. Made here rather than on first use
//! because a fresh process (a CodeCup game) would otherwise spend 0.1-0.3 s of its clock on it.
//! The crate's tests compare every entry with the same definitions computed at run time.

use std::io::Write;

#[allow(dead_code, missing_docs)]
#[path = "src/eval/line_entry.rs"]
mod line_entry;

fn main() {
    println!("cargo:rerun-if-changed=src/eval/line_entry.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let table = line_entry::packed_table(7);
    let out =
        std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    let mut file =
        std::fs::File::create(out.join("line_entries_7.bin")).expect("create line_entries_7.bin");
    file.write_all(&table).expect("write line_entries_7.bin");
}
