//! The vector files committed under `tests/data/` are the verified originals:
//! every `.gz` there decompresses to the SHA-256 that `tests/data/SHA256SUMS`
//! records for the original file, every file that `SHA256SUMS` names is there,
//! and nothing else is.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// `(hex digest, path)` for each line of `SHA256SUMS` (`sha256sum` format).
fn recorded() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(data_dir().join("SHA256SUMS")).expect("SHA256SUMS");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (digest, path) = l.split_once(char::is_whitespace).expect("digest and path");
            let path = path
                .trim_start()
                .trim_start_matches('*')
                .trim_start_matches("./");
            (digest.to_string(), path.to_string())
        })
        .collect()
}

/// Every file under `dir`, relative to it.
fn files(dir: &Path, prefix: &str, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("tests/data") {
        let entry = entry.unwrap();
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type().unwrap().is_dir() {
            files(&entry.path(), &format!("{name}/"), out);
        } else {
            out.insert(name);
        }
    }
}

#[test]
fn committed_vectors_are_the_recorded_originals() {
    let mut expected = BTreeSet::from(["README.md".to_string(), "SHA256SUMS".to_string()]);
    let recorded = recorded();
    assert!(
        recorded.len() >= 20,
        "SHA256SUMS lists {} files",
        recorded.len()
    );
    for (digest, path) in &recorded {
        let plain = data_dir().join(path);
        let bytes = if path.contains("LICENSE") {
            expected.insert(path.clone());
            std::fs::read(&plain).unwrap_or_else(|e| panic!("{path}: {e}"))
        } else {
            expected.insert(format!("{path}.gz"));
            let file = std::fs::File::open(data_dir().join(format!("{path}.gz")))
                .unwrap_or_else(|e| panic!("{path}.gz: {e}"));
            let mut bytes = Vec::new();
            flate2::read::GzDecoder::new(file)
                .read_to_end(&mut bytes)
                .unwrap_or_else(|e| panic!("{path}.gz: {e}"));
            bytes
        };
        let got: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(&got, digest, "{path}: not the recorded original");
    }
    let mut present = BTreeSet::new();
    files(&data_dir(), "", &mut present);
    assert_eq!(
        present, expected,
        "tests/data holds other files than SHA256SUMS names"
    );
}
