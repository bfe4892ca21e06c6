//! The provider: full handshakes over loopback TCP with this crate's
//! suites against rustls's own *ring* provider and on both sides, every
//! suite, TLS 1.3 and 1.2, 1 MiB each way; the same against the `openssl`
//! command line (two `#[ignore]`d tests that `.ci/run` runs); every
//! single-bit change of a sealed record rejected by this crate's decrypter;
//! QUIC: RFC 9001 Appendix A's Initial packets byte for byte, long-header
//! packets to and from ring's keys, every single-bit change of a packet
//! rejected, and a QUIC handshake in memory.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;

use hardware_aead_rustls as ours;
use rustls::crypto::CryptoProvider;
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, Iv, MessageDecrypter, MessageEncrypter, OutboundChunks,
    OutboundPlainMessage,
};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{
    ClientConfig, ClientConnection, Connection, ConnectionTrafficSecrets, ContentType,
    ProtocolVersion, RootCertStore, ServerConfig, ServerConnection, SupportedCipherSuite,
};

/// This crate's suites (the tests need a CPU with a hardware-aead tier).
fn all() -> &'static [SupportedCipherSuite] {
    ours::cipher_suites().expect("a CPU hardware-aead supports")
}

/// This crate's suite `id`.
fn ours_suite(id: rustls::CipherSuite) -> SupportedCipherSuite {
    *all().iter().find(|s| s.suite() == id).unwrap()
}

/// A file of `tests/fixtures` (test certificates made with the
/// `openssl` command line: see the README there).
fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Whether `suite` authenticates the server with RSA (else ECDSA; TLS 1.3
/// suites take either, and get ECDSA here).
fn is_rsa(suite: SupportedCipherSuite) -> bool {
    format!("{:?}", suite.suite()).contains("_RSA_")
}

/// `base` restricted to `suite` alone.
fn only(base: &CryptoProvider, suite: SupportedCipherSuite) -> Arc<CryptoProvider> {
    Arc::new(CryptoProvider {
        cipher_suites: vec![suite],
        ..base.clone()
    })
}

/// The ring provider's suite with `suite`'s identifier.
fn ring_twin(suite: SupportedCipherSuite) -> SupportedCipherSuite {
    *rustls::crypto::ring::ALL_CIPHER_SUITES
        .iter()
        .find(|s| s.suite() == suite.suite())
        .expect("ring has every suite this crate has")
}

fn server_config(provider: Arc<CryptoProvider>, suite: SupportedCipherSuite) -> Arc<ServerConfig> {
    let (cert, key) = if is_rsa(suite) {
        ("rsa.pem", "rsa.key")
    } else {
        ("ecdsa.pem", "ecdsa.key")
    };
    let chain = vec![CertificateDer::from_pem_file(data(cert)).unwrap()];
    let key = PrivateKeyDer::from_pem_file(data(key)).unwrap();
    Arc::new(
        ServerConfig::builder_with_provider(provider)
            .with_protocol_versions(&[suite.version()])
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap(),
    )
}

fn client_config(provider: Arc<CryptoProvider>, suite: SupportedCipherSuite) -> ClientConfig {
    let mut roots = RootCertStore::empty();
    let ca = if is_rsa(suite) {
        "ca-rsa.pem"
    } else {
        "ca-ecdsa.pem"
    };
    roots
        .add(CertificateDer::from_pem_file(data(ca)).unwrap())
        .unwrap();
    ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[suite.version()])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth()
}

/// `n` bytes of a pattern that differs per direction and position.
fn pattern(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[i % 4] ^ seed)
        .collect()
}

/// A handshake over loopback TCP with `client` and `server` providers
/// restricted to one suite, then 1 MiB from the client to the server and
/// 1 MiB back, each checked byte for byte; both ends must have negotiated
/// the suite.
fn handshake_and_transfer(
    client: &CryptoProvider,
    server: &CryptoProvider,
    suite: SupportedCipherSuite,
    label: &str,
) {
    const SIZE: usize = 1 << 20;
    let client_suite = client
        .cipher_suites
        .iter()
        .find(|s| s.suite() == suite.suite())
        .copied()
        .unwrap();
    let server_suite = server
        .cipher_suites
        .iter()
        .find(|s| s.suite() == suite.suite())
        .copied()
        .unwrap();
    let server_config = server_config(only(server, server_suite), suite);
    let client_config = Arc::new(client_config(only(client, client_suite), suite));

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server_thread = std::thread::spawn(move || {
        let (tcp, _) = listener.accept().unwrap();
        let conn = ServerConnection::new(server_config).unwrap();
        let mut tls = rustls::StreamOwned::new(conn, tcp);
        let mut got = vec![0u8; SIZE];
        tls.read_exact(&mut got).unwrap();
        assert!(got == pattern(SIZE, 0x11), "server received other bytes");
        let negotiated = tls.conn.negotiated_cipher_suite().map(|s| s.suite());
        tls.write_all(&pattern(SIZE, 0x22)).unwrap();
        tls.flush().unwrap();
        tls.conn.send_close_notify();
        let _ = tls.flush();
        negotiated
    });

    let tcp = TcpStream::connect(addr).unwrap();
    let conn =
        ClientConnection::new(client_config, ServerName::try_from("localhost").unwrap()).unwrap();
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    tls.write_all(&pattern(SIZE, 0x11)).unwrap();
    tls.flush().unwrap();
    let mut got = vec![0u8; SIZE];
    tls.read_exact(&mut got).unwrap();
    assert!(
        got == pattern(SIZE, 0x22),
        "{label}: client received other bytes"
    );
    assert_eq!(
        tls.conn.negotiated_cipher_suite().map(|s| s.suite()),
        Some(suite.suite()),
        "{label}"
    );
    assert_eq!(
        server_thread.join().unwrap(),
        Some(suite.suite()),
        "{label}"
    );
}

#[test]
fn every_suite_interoperates_with_ring_both_ways_and_with_itself() {
    let ours = ours::provider().expect("a CPU this crate supports");
    let ring = rustls::crypto::ring::default_provider();
    for &suite in all() {
        let name = format!("{:?}", suite.suite());
        handshake_and_transfer(
            &ours,
            &ring,
            suite,
            &format!("{name}: this crate's client, ring's server"),
        );
        handshake_and_transfer(
            &ring,
            &ours,
            suite,
            &format!("{name}: ring's client, this crate's server"),
        );
        handshake_and_transfer(
            &ours,
            &ours,
            suite,
            &format!("{name}: this crate on both sides"),
        );
    }
}

#[test]
fn provider_replaces_only_the_aes_gcm_suites() {
    let ring = rustls::crypto::ring::default_provider();
    let ours = ours::provider().unwrap();
    assert_eq!(ours.cipher_suites.len(), ring.cipher_suites.len());
    // `SupportedCipherSuite` compares by identifier: tell the objects apart
    // by address.
    let same = |a: &SupportedCipherSuite, b: &SupportedCipherSuite| match (a, b) {
        (SupportedCipherSuite::Tls13(a), SupportedCipherSuite::Tls13(b)) => std::ptr::eq(*a, *b),
        (SupportedCipherSuite::Tls12(a), SupportedCipherSuite::Tls12(b)) => std::ptr::eq(*a, *b),
        _ => false,
    };
    for (o, r) in ours.cipher_suites.iter().zip(&ring.cipher_suites) {
        assert_eq!(o.suite(), r.suite(), "same order");
        let is_aes = format!("{:?}", o.suite()).contains("AES_");
        assert_eq!(
            all().iter().any(|x| same(x, o)),
            is_aes,
            "{:?}: ours",
            o.suite()
        );
        assert_eq!(same(o, r), !is_aes, "{:?}: ring's", o.suite());
    }
    assert_eq!(ours.kx_groups.len(), ring.kx_groups.len());
}

/// Moves every TLS byte `from` has to send into `to` and has `to`
/// process them; returns the bytes moved.
fn pump(from: &mut Connection, to: &mut Connection) -> Vec<u8> {
    let mut wire = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut wire).unwrap();
    }
    let mut rest = &wire[..];
    while !rest.is_empty() {
        to.read_tls(&mut rest).unwrap();
        to.process_new_packets().unwrap();
    }
    wire
}

/// An in-memory handshake with this crate's provider (restricted to
/// `suite`, secret extraction on) as the client and ring's as the server;
/// then the client seals one record of `message`. Returns the record as
/// sent and the client's sending secrets with the record's sequence number.
fn one_sealed_record(
    suite: SupportedCipherSuite,
    message: &[u8],
) -> (Vec<u8>, u64, ConnectionTrafficSecrets) {
    let ours = ours::provider().unwrap();
    let ring = rustls::crypto::ring::default_provider();
    let mut client_config = client_config(only(&ours, suite), suite);
    client_config.enable_secret_extraction = true;
    let server_config = server_config(only(&ring, ring_twin(suite)), suite);
    let mut client: Connection = ClientConnection::new(
        Arc::new(client_config),
        ServerName::try_from("localhost").unwrap(),
    )
    .unwrap()
    .into();
    let mut server: Connection = ServerConnection::new(server_config).unwrap().into();
    while client.is_handshaking() || server.is_handshaking() {
        pump(&mut client, &mut server);
        pump(&mut server, &mut client);
    }
    pump(&mut client, &mut server);
    pump(&mut server, &mut client);
    client.writer().write_all(message).unwrap();
    let record = pump(&mut client, &mut server);
    let mut got = vec![0u8; message.len()];
    server.reader().read_exact(&mut got).unwrap();
    assert_eq!(got, message, "ring's server read the record");
    let Connection::Client(client) = client else {
        unreachable!()
    };
    let (next_seq, secrets) = client.dangerous_extract_secrets().unwrap().tx;
    (record, next_seq - 1, secrets)
}

/// Opens `record` (header and payload) with `decrypter` at `seq`: the
/// plaintext's type and bytes, or the error.
fn open(
    decrypter: &mut dyn MessageDecrypter,
    record: &[u8],
    seq: u64,
) -> Result<(ContentType, Vec<u8>), rustls::Error> {
    let typ = ContentType::from(record[0]);
    let version = ProtocolVersion::from(u16::from_be_bytes([record[1], record[2]]));
    let mut payload = record[5..].to_vec();
    let msg = InboundOpaqueMessage::new(typ, version, &mut payload);
    decrypter
        .decrypt(msg, seq)
        .map(|plain| (plain.typ, plain.payload.to_vec()))
}

#[test]
fn every_single_bit_change_of_a_record_is_rejected() {
    let message = b"a record whose every bit is flipped once, one flip at a time";
    for &suite in all() {
        let name = format!("{:?}", suite.suite());
        let (record, seq, secrets) = one_sealed_record(suite, message);
        assert_eq!(
            u16::from_be_bytes([record[3], record[4]]) as usize,
            record.len() - 5,
            "{name}: one record"
        );
        let mut decrypter = match (suite, secrets) {
            (SupportedCipherSuite::Tls13(s), ConnectionTrafficSecrets::Aes128Gcm { key, iv })
            | (SupportedCipherSuite::Tls13(s), ConnectionTrafficSecrets::Aes256Gcm { key, iv }) => {
                s.aead_alg.decrypter(key, iv)
            }
            (SupportedCipherSuite::Tls12(s), ConnectionTrafficSecrets::Aes128Gcm { key, iv })
            | (SupportedCipherSuite::Tls12(s), ConnectionTrafficSecrets::Aes256Gcm { key, iv }) => {
                s.aead_alg.decrypter(key, &iv.as_ref()[..4])
            }
            _ => panic!("{name}: AES-GCM secrets"),
        };
        let (typ, plain) =
            open(decrypter.as_mut(), &record, seq).expect("the record as sent opens");
        assert_eq!(
            (typ, &plain[..]),
            (ContentType::ApplicationData, &message[..]),
            "{name}"
        );
        assert!(
            open(decrypter.as_mut(), &record, seq + 1).is_err(),
            "{name}: another sequence number"
        );
        // TLS 1.3 authenticates the header as a constant (RFC 8446 §5.2:
        // rustls refuses another type or version before opening); TLS 1.2
        // authenticates the type and version as they are (RFC 5246
        // §6.2.3.3), so their bits count too. The length is framing.
        let first = if suite.version() == &rustls::version::TLS13 {
            5
        } else {
            0
        };
        for byte in (first..record.len()).filter(|&b| !(3..5).contains(&b)) {
            for bit in 0..8 {
                let mut forged = record.clone();
                forged[byte] ^= 1 << bit;
                assert_eq!(
                    open(decrypter.as_mut(), &forged, seq).err(),
                    Some(rustls::Error::DecryptError),
                    "{name}: byte {byte}, bit {bit}"
                );
            }
        }
        // Truncated by a byte and emptied: errors, not panics.
        assert!(
            open(decrypter.as_mut(), &record[..record.len() - 1], seq).is_err(),
            "{name}"
        );
        assert!(
            open(decrypter.as_mut(), &record[..5], seq).is_err(),
            "{name}"
        );
    }
}

/// Two copies of one traffic key and IV of `suite`: the client's sending
/// secrets and the server's receiving ones, from an in-memory handshake of
/// this crate's client with ring's server (rustls gives out key bytes of
/// the suite's length only this way). Each call is a new key.
fn twin_secrets(suite: SupportedCipherSuite) -> [(AeadKey, Iv); 2] {
    let ours = ours::provider().unwrap();
    let ring = rustls::crypto::ring::default_provider();
    let mut client_config = client_config(only(&ours, suite), suite);
    client_config.enable_secret_extraction = true;
    let mut server_config = (*server_config(only(&ring, ring_twin(suite)), suite)).clone();
    server_config.enable_secret_extraction = true;
    let mut client: Connection = ClientConnection::new(
        Arc::new(client_config),
        ServerName::try_from("localhost").unwrap(),
    )
    .unwrap()
    .into();
    let mut server: Connection = ServerConnection::new(Arc::new(server_config))
        .unwrap()
        .into();
    while client.is_handshaking() || server.is_handshaking() {
        pump(&mut client, &mut server);
        pump(&mut server, &mut client);
    }
    pump(&mut client, &mut server);
    pump(&mut server, &mut client);
    let (Connection::Client(client), Connection::Server(server)) = (client, server) else {
        unreachable!()
    };
    let key_iv = |secrets| match secrets {
        ConnectionTrafficSecrets::Aes128Gcm { key, iv }
        | ConnectionTrafficSecrets::Aes256Gcm { key, iv } => (key, iv),
        _ => panic!("AES-GCM secrets"),
    };
    [
        key_iv(client.dangerous_extract_secrets().unwrap().tx.1),
        key_iv(server.dangerous_extract_secrets().unwrap().rx.1),
    ]
}

/// The encrypter `suite` makes of `key` and `iv` (TLS 1.2's IV: the 4-byte
/// salt, then the 8-byte explicit nonce of record 0).
fn encrypter(suite: SupportedCipherSuite, (key, iv): (AeadKey, Iv)) -> Box<dyn MessageEncrypter> {
    match suite {
        SupportedCipherSuite::Tls13(s) => s.aead_alg.encrypter(key, iv),
        SupportedCipherSuite::Tls12(s) => {
            s.aead_alg
                .encrypter(key, &iv.as_ref()[..4], &iv.as_ref()[4..])
        }
    }
}

/// The decrypter `suite` makes of `key` and `iv`.
fn decrypter(suite: SupportedCipherSuite, (key, iv): (AeadKey, Iv)) -> Box<dyn MessageDecrypter> {
    match suite {
        SupportedCipherSuite::Tls13(s) => s.aead_alg.decrypter(key, iv),
        SupportedCipherSuite::Tls12(s) => s.aead_alg.decrypter(key, &iv.as_ref()[..4]),
    }
}

/// Seals `plain`, in the pieces that `cuts` (ascending offsets) make of
/// it or as one piece if there are none, as record `seq`: the record.
fn seal_record(
    encrypter: &mut dyn MessageEncrypter,
    plain: &[u8],
    cuts: &[usize],
    seq: u64,
) -> Vec<u8> {
    let mut pieces = Vec::new();
    let mut at = 0;
    for &cut in cuts.iter().chain([&plain.len()]) {
        pieces.push(&plain[at..cut]);
        at = cut;
    }
    let payload = if cuts.is_empty() {
        OutboundChunks::Single(plain)
    } else {
        OutboundChunks::new(&pieces)
    };
    let msg = OutboundPlainMessage {
        typ: ContentType::ApplicationData,
        version: ProtocolVersion::TLSv1_2,
        payload,
    };
    encrypter.encrypt(msg, seq).unwrap().encode()
}

/// A record sealed straight from one piece of plaintext (no staging copy)
/// and one gathered from several are the bytes ring's encrypter seals
/// under the same key, at lengths around every tier's block and group
/// sizes, for every suite.
#[test]
fn records_from_one_piece_or_several_are_the_bytes_ring_seals() {
    for &suite in all() {
        let name = format!("{:?}", suite.suite());
        let [a, b] = twin_secrets(suite);
        let (mut ours, mut rings) = (encrypter(suite, a), encrypter(ring_twin(suite), b));
        // Around every tier's block and group sizes, and the length from
        // which a record is sealed straight from the caller's bytes (4 KiB).
        let lengths = [
            0, 1, 15, 16, 17, 63, 64, 255, 256, 1000, 1024, 4095, 4096, 4097, 16383, 16384,
        ];
        for (seq, len) in (0u64..).zip(lengths) {
            let plain = pattern(len, len as u8);
            let want = seal_record(rings.as_mut(), &plain, &[], seq);
            assert_eq!(
                seal_record(ours.as_mut(), &plain, &[], seq),
                want,
                "{name}: {len} bytes in one piece"
            );
            let cuts = [len / 3, len / 3 + len / 5];
            assert_eq!(
                seal_record(ours.as_mut(), &plain, &cuts, seq),
                want,
                "{name}: {len} bytes in three pieces"
            );
        }
    }
}

/// RFC 8446 §5.2 and RFC 5246 §6.2.1: a record of 2^14 bytes of plaintext
/// opens, one of 2^14 + 1 is `PeerSentOversizedRecord`, for this crate's
/// decrypters as for ring's (each opening a record ring sealed under its
/// key), every suite.
#[test]
fn records_of_more_than_2_to_the_14_bytes_are_oversized_as_ring_says() {
    for &suite in all() {
        let name = format!("{:?}", suite.suite());
        let ring_suite = ring_twin(suite);
        let [a, b] = twin_secrets(suite);
        let (mut to_ours, mut ours) = (encrypter(ring_suite, a), decrypter(suite, b));
        let [c, d] = twin_secrets(suite);
        let (mut to_ring, mut rings) = (encrypter(ring_suite, c), decrypter(ring_suite, d));
        for (seq, len) in [(0u64, 1 << 14), (1, (1 << 14) + 1)] {
            let plain = pattern(len, 0x5c);
            let mine = open(
                ours.as_mut(),
                &seal_record(to_ours.as_mut(), &plain, &[], seq),
                seq,
            );
            let theirs = open(
                rings.as_mut(),
                &seal_record(to_ring.as_mut(), &plain, &[], seq),
                seq,
            );
            if len == 1 << 14 {
                assert_eq!(
                    mine,
                    Ok((ContentType::ApplicationData, plain.clone())),
                    "{name}: {len} bytes"
                );
            } else {
                assert_eq!(
                    mine,
                    Err(rustls::Error::PeerSentOversizedRecord),
                    "{name}: {len} bytes"
                );
            }
            assert_eq!(mine, theirs, "{name}: {len} bytes, as ring");
        }
    }
}

/// The `openssl` command line's name for `suite`.
fn openssl_name(suite: SupportedCipherSuite) -> &'static str {
    use rustls::CipherSuite as C;
    match suite.suite() {
        C::TLS13_AES_128_GCM_SHA256 => "TLS_AES_128_GCM_SHA256",
        C::TLS13_AES_256_GCM_SHA384 => "TLS_AES_256_GCM_SHA384",
        C::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 => "ECDHE-ECDSA-AES128-GCM-SHA256",
        C::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 => "ECDHE-ECDSA-AES256-GCM-SHA384",
        C::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 => "ECDHE-RSA-AES128-GCM-SHA256",
        C::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 => "ECDHE-RSA-AES256-GCM-SHA384",
        other => panic!("no openssl name for {other:?}"),
    }
}

/// The `openssl` arguments that pin its protocol version and suite to `suite`.
fn openssl_suite_args(suite: SupportedCipherSuite) -> [&'static str; 3] {
    if suite.version() == &rustls::version::TLS13 {
        ["-tls1_3", "-ciphersuites", openssl_name(suite)]
    } else {
        ["-tls1_2", "-cipher", openssl_name(suite)]
    }
}

/// A loopback port nobody listens on at the moment of asking.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A child process that is killed when dropped (a failed assertion must not
/// leave an `openssl` behind).
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// This crate's client against `openssl s_server -rev` (an echo server that
/// sends each line back reversed), every suite.
#[test]
#[ignore = "needs the openssl command line; .ci/run installs it and runs this"]
fn this_crates_client_talks_to_openssl_s_server() {
    let ours = ours::provider().unwrap();
    for &suite in all() {
        let name = openssl_name(suite);
        let port = free_port();
        let (cert, key) = if is_rsa(suite) {
            ("rsa.pem", "rsa.key")
        } else {
            ("ecdsa.pem", "ecdsa.key")
        };
        let _server = Child(
            std::process::Command::new("openssl")
                .args(["s_server", "-rev", "-quiet", "-naccept", "1", "-accept"])
                .arg(format!("127.0.0.1:{port}"))
                .arg("-cert")
                .arg(data(cert))
                .arg("-key")
                .arg(data(key))
                .args(openssl_suite_args(suite))
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("the openssl command line"),
        );
        // Up to ten seconds for it to listen.
        let start = std::time::Instant::now();
        let tcp = loop {
            match TcpStream::connect(("127.0.0.1", port)) {
                Ok(tcp) => break tcp,
                Err(_) if start.elapsed() < std::time::Duration::from_secs(10) => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e) => panic!("{name}: openssl s_server did not listen: {e}"),
            }
        };
        let config = Arc::new(client_config(only(&ours, suite), suite));
        let conn =
            ClientConnection::new(config, ServerName::try_from("localhost").unwrap()).unwrap();
        let mut tls = rustls::StreamOwned::new(conn, tcp);
        let line = format!("hardware-aead {name} {}\n", "x".repeat(3000));
        tls.write_all(line.as_bytes()).unwrap();
        tls.flush().unwrap();
        let mut got = Vec::new();
        let mut byte = [0u8; 1];
        while got.last() != Some(&b'\n') {
            tls.read_exact(&mut byte)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            got.push(byte[0]);
        }
        let expected: String = line.trim_end().chars().rev().collect::<String>() + "\n";
        assert_eq!(String::from_utf8(got).unwrap(), expected, "{name}");
        assert_eq!(
            tls.conn.negotiated_cipher_suite().map(|s| s.suite()),
            Some(suite.suite()),
            "{name}"
        );
    }
}

/// `openssl s_client` against this crate's server, every suite: the server
/// reads a line, sends it back upper-cased and closes.
#[test]
#[ignore = "needs the openssl command line; .ci/run installs it and runs this"]
fn openssl_s_client_talks_to_this_crates_server() {
    let ours = ours::provider().unwrap();
    for &suite in all() {
        let name = openssl_name(suite);
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let config = server_config(only(&ours, suite), suite);
        let server = std::thread::spawn(move || {
            let (tcp, _) = listener.accept().unwrap();
            let mut tls = rustls::StreamOwned::new(ServerConnection::new(config).unwrap(), tcp);
            let mut line = Vec::new();
            let mut byte = [0u8; 1];
            while line.last() != Some(&b'\n') {
                tls.read_exact(&mut byte).unwrap();
                line.push(byte[0]);
            }
            let negotiated = tls.conn.negotiated_cipher_suite().map(|s| s.suite());
            tls.write_all(&line.to_ascii_uppercase()).unwrap();
            tls.conn.send_close_notify();
            tls.flush().unwrap();
            negotiated
        });
        let ca = if is_rsa(suite) {
            "ca-rsa.pem"
        } else {
            "ca-ecdsa.pem"
        };
        let mut client = Child(
            std::process::Command::new("openssl")
                .args([
                    "s_client",
                    "-quiet",
                    "-verify_return_error",
                    "-servername",
                    "localhost",
                    "-connect",
                ])
                .arg(format!("127.0.0.1:{port}"))
                .arg("-CAfile")
                .arg(data(ca))
                .args(openssl_suite_args(suite))
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("the openssl command line"),
        );
        let line = format!("hardware-aead {name} {}\n", "y".repeat(3000));
        client
            .0
            .stdin
            .take()
            .unwrap()
            .write_all(line.as_bytes())
            .unwrap();
        let mut got = String::new();
        client
            .0
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut got)
            .unwrap();
        assert_eq!(got, line.to_ascii_uppercase(), "{name}");
        assert_eq!(server.join().unwrap(), Some(suite.suite()), "{name}");
    }
}

/// RFC 9001 Appendix A's values (`tests/fixtures/rustls/rfc9001-appendix-a.txt`).
fn rfc9001(name: &str) -> Vec<u8> {
    let text = std::fs::read_to_string(data("rfc9001-appendix-a.txt")).unwrap();
    let value = text
        .lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(" = ")))
        .unwrap_or_else(|| panic!("{name} in the vector file"));
    (0..value.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&value[i..i + 2], 16).unwrap())
        .collect()
}

/// The plain header, payload and packet number of RFC 9001's `who`
/// ("client", A.2; "server", A.3) Initial packet, and the protected packet.
fn initial_packet(who: &str) -> (Vec<u8>, Vec<u8>, u64, Vec<u8>) {
    let header = rfc9001(&format!("{who}_header"));
    let mut payload = rfc9001(&format!("{who}_payload"));
    let padding: usize = String::from_utf8(rfc9001_text(&format!("{who}_padding")))
        .unwrap()
        .parse()
        .unwrap();
    payload.resize(payload.len() + padding, 0);
    let pn = String::from_utf8(rfc9001_text(&format!("{who}_pn")))
        .unwrap()
        .parse()
        .unwrap();
    (header, payload, pn, rfc9001(&format!("{who}_protected")))
}

/// A value of the vector file as its text.
fn rfc9001_text(name: &str) -> Vec<u8> {
    let text = std::fs::read_to_string(data("rfc9001-appendix-a.txt")).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(" = ")))
        .unwrap_or_else(|| panic!("{name} in the vector file"))
        .as_bytes()
        .to_vec()
}

/// The TLS 1.3 suite object and QUIC algorithm behind `suite`.
fn quic_parts(
    suite: SupportedCipherSuite,
) -> (
    &'static rustls::Tls13CipherSuite,
    &'static dyn rustls::quic::Algorithm,
) {
    let SupportedCipherSuite::Tls13(s) = suite else {
        panic!("a TLS 1.3 suite")
    };
    (s, s.quic.expect("a QUIC algorithm"))
}

/// Protects a packet as RFC 9001 §5.3–5.4 does: payload sealed with the
/// header as additional data, then the header's protected bits masked with
/// the sample that starts 4 bytes after the packet number's start.
fn protect(
    keys: &rustls::quic::DirectionalKeys,
    header: &[u8],
    payload: &[u8],
    pn: u64,
) -> Vec<u8> {
    let pn_len = usize::from(header[0] & 0x03) + 1;
    let mut header = header.to_vec();
    let mut payload = payload.to_vec();
    let tag = keys
        .packet
        .encrypt_in_place(pn, &header, &mut payload)
        .unwrap();
    payload.extend_from_slice(tag.as_ref());
    let sample_at = 4 - pn_len;
    let sample = payload[sample_at..sample_at + 16].to_vec();
    let pn_at = header.len() - pn_len;
    let (first, rest) = header.split_at_mut(1);
    keys.header
        .encrypt_in_place(&sample, &mut first[0], &mut rest[pn_at - 1..])
        .unwrap();
    header.extend_from_slice(&payload);
    header
}

/// Removes the protection of a packet whose packet number starts at `pn_at`:
/// the header and plaintext, or the error.
fn unprotect(
    keys: &rustls::quic::DirectionalKeys,
    packet: &[u8],
    pn_at: usize,
) -> Result<(Vec<u8>, Vec<u8>), rustls::Error> {
    let mut packet = packet.to_vec();
    let sample = packet[pn_at + 4..pn_at + 20].to_vec();
    let (first, rest) = packet.split_at_mut(1);
    keys.header
        .decrypt_in_place(&sample, &mut first[0], &mut rest[pn_at - 1..pn_at + 3])?;
    let pn_len = usize::from(packet[0] & 0x03) + 1;
    let pn = packet[pn_at..pn_at + pn_len]
        .iter()
        .fold(0u64, |n, &b| n << 8 | u64::from(b));
    let (header, payload) = packet.split_at_mut(pn_at + pn_len);
    let plain = keys.packet.decrypt_in_place(pn, header, payload)?.to_vec();
    Ok((header.to_vec(), plain))
}

#[test]
fn quic_initial_packets_of_rfc_9001_appendix_a_byte_for_byte() {
    use rustls::Side;
    use rustls::quic::{Keys, Version};
    let dcid = rfc9001("dcid");
    let ours = quic_parts(ours_suite(rustls::CipherSuite::TLS13_AES_128_GCM_SHA256));
    let ring = quic_parts(ring_twin(ours_suite(
        rustls::CipherSuite::TLS13_AES_128_GCM_SHA256,
    )));
    for (who, side, peer) in [
        ("client", Side::Client, Side::Server),
        ("server", Side::Server, Side::Client),
    ] {
        let (header, payload, pn, expected) = initial_packet(who);
        // ring's provider first: the vectors are read right.
        let ring_keys = Keys::initial(Version::V1, ring.0, ring.1, &dcid, side);
        assert_eq!(
            protect(&ring_keys.local, &header, &payload, pn),
            expected,
            "{who}: ring"
        );
        let keys = Keys::initial(Version::V1, ours.0, ours.1, &dcid, side);
        let packet = protect(&keys.local, &header, &payload, pn);
        assert_eq!(packet, expected, "{who}: this crate");
        // The peer's view: the protection comes off again.
        let receiver = Keys::initial(Version::V1, ours.0, ours.1, &dcid, peer);
        let pn_at = header.len() - (usize::from(header[0] & 0x03) + 1);
        let packet_as_sent = packet.clone();
        assert_eq!(
            unprotect(&receiver.remote, &packet, pn_at).unwrap(),
            (header.clone(), payload.clone()),
            "{who}"
        );
        // The same limits as ring's (RFC 9001 §6.6, B.1).
        let (mine, theirs) = (&keys.local.packet, &ring_keys.local.packet);
        assert_eq!(
            mine.confidentiality_limit(),
            theirs.confidentiality_limit(),
            "{who}"
        );
        assert_eq!(mine.integrity_limit(), theirs.integrity_limit(), "{who}");
        assert_eq!(mine.tag_len(), theirs.tag_len(), "{who}");
        // Long-header packets of other payloads, so that the masks vary
        // (RFC 9001's two leave bit 4 of the first byte's mask clear):
        // sealed by this crate, opened by ring's keys, and the other way.
        let ring_receiver = Keys::initial(Version::V1, ring.0, ring.1, &dcid, peer);
        let receiver = Keys::initial(Version::V1, ours.0, ours.1, &dcid, peer);
        let pn_at = header.len() - (usize::from(header[0] & 0x03) + 1);
        for i in 0..64u8 {
            let mut varied = payload.clone();
            varied[0] ^= i;
            let packet = protect(&keys.local, &header, &varied, pn);
            assert_eq!(
                unprotect(&ring_receiver.remote, &packet, pn_at).unwrap().1,
                varied,
                "{who}: to ring, {i}"
            );
            let packet = protect(&ring_keys.local, &header, &varied, pn);
            assert_eq!(
                unprotect(&receiver.remote, &packet, pn_at).unwrap().1,
                varied,
                "{who}: from ring, {i}"
            );
        }
        // Every single-bit change is rejected.
        let packet = packet_as_sent;
        for byte in 0..packet.len() {
            for bit in 0..8 {
                let mut forged = packet.clone();
                forged[byte] ^= 1 << bit;
                assert!(
                    unprotect(&receiver.remote, &forged, pn_at).is_err(),
                    "{who}: byte {byte}, bit {bit}"
                );
            }
        }
    }
}

#[test]
fn quic_handshake_in_memory_with_this_crate_on_both_sides() {
    use rustls::quic::{self, KeyChange, Version};
    let provider = ours::provider().unwrap();
    for &suite in &[
        ours_suite(rustls::CipherSuite::TLS13_AES_128_GCM_SHA256),
        ours_suite(rustls::CipherSuite::TLS13_AES_256_GCM_SHA384),
    ] {
        let name = format!("{:?}", suite.suite());
        let server_config = server_config(only(&provider, suite), suite);
        let client_config = Arc::new(client_config(only(&provider, suite), suite));
        let mut client = quic::ClientConnection::new(
            client_config,
            Version::V1,
            ServerName::try_from("localhost").unwrap(),
            b"client transport parameters".to_vec(),
        )
        .unwrap();
        let mut server = quic::ServerConnection::new(
            server_config,
            Version::V1,
            b"server transport parameters".to_vec(),
        )
        .unwrap();
        let (mut client_1rtt, mut server_1rtt) = (None, None);
        // Handshake bytes go straight across (QUIC's CRYPTO frames, here
        // without packets); each side's key changes are kept.
        for _ in 0..8 {
            let mut buf = Vec::new();
            if let Some(KeyChange::OneRtt { keys, .. }) = client.write_hs(&mut buf) {
                client_1rtt = Some(keys);
            }
            if !buf.is_empty() {
                server.read_hs(&buf).unwrap();
            }
            let mut buf = Vec::new();
            if let Some(KeyChange::OneRtt { keys, .. }) = server.write_hs(&mut buf) {
                server_1rtt = Some(keys);
            }
            if !buf.is_empty() {
                client.read_hs(&buf).unwrap();
            }
        }
        assert!(
            !client.is_handshaking() && !server.is_handshaking(),
            "{name}"
        );
        assert_eq!(
            client.negotiated_cipher_suite().map(|s| s.suite()),
            Some(suite.suite()),
            "{name}"
        );
        assert_eq!(
            client.quic_transport_parameters(),
            Some(&b"server transport parameters"[..]),
            "{name}"
        );
        assert_eq!(
            server.quic_transport_parameters(),
            Some(&b"client transport parameters"[..]),
            "{name}"
        );
        let (client_keys, server_keys) = (
            client_1rtt.expect("client 1-RTT keys"),
            server_1rtt.expect("server 1-RTT keys"),
        );
        // A short-header packet each way under the 1-RTT keys.
        let header = [
            0x41, 0xb0, 0x1f, 0xd2, 0x4a, 0x58, 0x6a, 0x9c, 0xf3, 0x00, 0x07,
        ];
        let payload = pattern(1000, 0x33);
        let packet = protect(&client_keys.local, &header, &payload, 7);
        assert_eq!(
            unprotect(&server_keys.remote, &packet, 9).unwrap(),
            (header.to_vec(), payload.clone()),
            "{name}"
        );
        let packet = protect(&server_keys.local, &header, &payload, 7);
        assert_eq!(
            unprotect(&client_keys.remote, &packet, 9).unwrap(),
            (header.to_vec(), payload),
            "{name}"
        );
    }
}

/// draft-ietf-quic-multipath's packets against ring's packet keys: for
/// random path ids, packet numbers, headers and payload lengths, this
/// crate's packet key seals the bytes ring's seals and opens ring's
/// packets, and ring's opens this crate's, both suites, both directions.
#[test]
fn quic_multipath_packets_are_ring_s_for_random_path_ids() {
    use rustls::Side;
    use rustls::quic::{Keys, Version};
    // xorshift64*: reproducible test inputs without a dependency.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    for id in [
        rustls::CipherSuite::TLS13_AES_128_GCM_SHA256,
        rustls::CipherSuite::TLS13_AES_256_GCM_SHA384,
    ] {
        let ours = quic_parts(ours_suite(id));
        let ring = quic_parts(ring_twin(ours_suite(id)));
        let dcid = next().to_be_bytes();
        for side in [Side::Client, Side::Server] {
            let mine = Keys::initial(Version::V1, ours.0, ours.1, &dcid, side);
            let theirs = Keys::initial(Version::V1, ring.0, ring.1, &dcid, side);
            for round in 0..300 {
                let path = match round {
                    0 => 0,
                    1 => u32::MAX,
                    _ => next() as u32,
                };
                let pn = next() >> (next() % 64);
                let header = pattern(1 + (next() % 40) as usize, next() as u8);
                let plain = pattern((next() % 1500) as usize, next() as u8);
                let what = format!("{id:?}, {side:?}, path {path:#x}, packet {pn}");
                let mut sealed = plain.clone();
                let tag = mine
                    .local
                    .packet
                    .encrypt_in_place_for_path(path, pn, &header, &mut sealed)
                    .unwrap();
                sealed.extend_from_slice(tag.as_ref());
                let mut want = plain.clone();
                let tag = theirs
                    .local
                    .packet
                    .encrypt_in_place_for_path(path, pn, &header, &mut want)
                    .unwrap();
                want.extend_from_slice(tag.as_ref());
                assert_eq!(sealed, want, "{what}: sealed as ring seals");
                // Path 0 is RFC 9001's nonce.
                if path == 0 {
                    let mut plain_nonce = plain.clone();
                    let tag = mine
                        .local
                        .packet
                        .encrypt_in_place(pn, &header, &mut plain_nonce)
                        .unwrap();
                    plain_nonce.extend_from_slice(tag.as_ref());
                    assert_eq!(plain_nonce, want, "{what}: path 0");
                }
                // The other side's keys open what each side sealed.
                let peer = match side {
                    Side::Client => Side::Server,
                    Side::Server => Side::Client,
                };
                let my_peer = Keys::initial(Version::V1, ours.0, ours.1, &dcid, peer);
                let ring_peer = Keys::initial(Version::V1, ring.0, ring.1, &dcid, peer);
                let mut buf = want.clone();
                assert_eq!(
                    my_peer
                        .remote
                        .packet
                        .decrypt_in_place_for_path(path, pn, &header, &mut buf)
                        .unwrap(),
                    &plain[..],
                    "{what}: ring's packet opened"
                );
                let mut buf = sealed.clone();
                assert_eq!(
                    ring_peer
                        .remote
                        .packet
                        .decrypt_in_place_for_path(path, pn, &header, &mut buf)
                        .unwrap(),
                    &plain[..],
                    "{what}: opened by ring"
                );
                // Under another path id it does not open, and nothing of
                // the plaintext is left.
                let mut buf = sealed.clone();
                assert_eq!(
                    my_peer
                        .remote
                        .packet
                        .decrypt_in_place_for_path(path ^ 1, pn, &header, &mut buf)
                        .err(),
                    Some(rustls::Error::DecryptError),
                    "{what}: another path"
                );
                assert!(buf[..plain.len()].iter().all(|&b| b == 0), "{what}: wiped");
            }
        }
    }
}
