//! rustls's record protection with this crate's provider against rustls's
//! own ring and aws-lc-rs providers, in one process, interleaved (the
//! timing loop of `examples/compare.rs`, [`timing`]).
//!
//! ```text
//! cargo run --release -p hardware-aead-bench --example records -- [rounds] [record sizes]
//! ```
//!
//! First TLS 1.3 record protection alone: `MessageEncrypter::encrypt` of
//! one record from a plaintext in one piece (what rustls hands a provider
//! for an application write), and `MessageDecrypter::decrypt` of one
//! record (copied into place first, for every provider alike), at each
//! record size (default 16,1024,16384), AES-128-GCM and AES-256-GCM. Then
//! 64 MiB from a rustls client to a rustls server over loopback TCP
//! (handshake excluded). Every line gives the median time and, for this
//! crate, the ratio to the faster provider's median (below 1 = faster).

use std::hint::black_box;
use std::time::Instant;

use hardware_aead_bench::timing::{self, Entry, run};

/// The sending secrets of a client and the receiving secrets of a server
/// after an in-memory TLS 1.3 handshake with `provider` restricted to
/// `suite` on both sides (the same traffic key), for timing record
/// protection alone.
fn tls13_secrets(
    provider: &rustls::crypto::CryptoProvider,
    suite: rustls::SupportedCipherSuite,
) -> (
    rustls::ConnectionTrafficSecrets,
    rustls::ConnectionTrafficSecrets,
) {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
    use rustls::{
        ClientConfig, ClientConnection, Connection, RootCertStore, ServerConfig, ServerConnection,
    };
    use std::sync::Arc;
    let provider = Arc::new(rustls::crypto::CryptoProvider {
        cipher_suites: vec![suite],
        ..provider.clone()
    });
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hardware-aead-rustls/tests/fixtures");
    let mut server_config = ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![CertificateDer::from_pem_file(dir.join("ecdsa.pem")).unwrap()],
            PrivateKeyDer::from_pem_file(dir.join("ecdsa.key")).unwrap(),
        )
        .unwrap();
    server_config.enable_secret_extraction = true;
    let mut roots = RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_file(dir.join("ca-ecdsa.pem")).unwrap())
        .unwrap();
    let mut client_config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    client_config.enable_secret_extraction = true;
    let mut client: Connection = ClientConnection::new(
        Arc::new(client_config),
        ServerName::try_from("localhost").unwrap(),
    )
    .unwrap()
    .into();
    let mut server: Connection = ServerConnection::new(Arc::new(server_config))
        .unwrap()
        .into();
    let pump = |from: &mut Connection, to: &mut Connection| {
        let mut wire = Vec::new();
        while from.wants_write() {
            from.write_tls(&mut wire).unwrap();
        }
        let mut rest = &wire[..];
        while !rest.is_empty() {
            to.read_tls(&mut rest).unwrap();
            to.process_new_packets().unwrap();
        }
    };
    for _ in 0..4 {
        pump(&mut client, &mut server);
        pump(&mut server, &mut client);
    }
    assert!(!client.is_handshaking() && !server.is_handshaking());
    let Connection::Client(client) = client else {
        unreachable!()
    };
    let Connection::Server(server) = server else {
        unreachable!()
    };
    (
        client.dangerous_extract_secrets().unwrap().tx.1,
        server.dangerous_extract_secrets().unwrap().rx.1,
    )
}

/// rustls's TLS 1.3 record protection, `MessageEncrypter::encrypt` and
/// `MessageDecrypter::decrypt` (the record copied into place first, for
/// every provider alike), of records of `sizes` bytes: this crate's suites
/// against those of rustls's ring and aws-lc-rs providers.
fn rustls_cases(rounds: usize, sizes: &[usize]) {
    use rustls::crypto::cipher::{InboundOpaqueMessage, OutboundChunks, OutboundPlainMessage};
    use rustls::{ConnectionTrafficSecrets, ContentType, ProtocolVersion, SupportedCipherSuite};
    let ours = hardware_aead_rustls::provider().expect("a supported CPU");
    let providers = [
        ("hw/new", false, ours),
        ("ring", true, rustls::crypto::ring::default_provider()),
        (
            "aws-lc-rs",
            true,
            rustls::crypto::aws_lc_rs::default_provider(),
        ),
    ];
    for (title, id) in [
        ("AES-128-GCM", rustls::CipherSuite::TLS13_AES_128_GCM_SHA256),
        ("AES-256-GCM", rustls::CipherSuite::TLS13_AES_256_GCM_SHA384),
    ] {
        let mut sides = Vec::new();
        for (name, peer, provider) in &providers {
            let suite = *provider
                .cipher_suites
                .iter()
                .find(|s| s.suite() == id)
                .unwrap();
            let SupportedCipherSuite::Tls13(tls13) = suite else {
                unreachable!()
            };
            let (tx, rx) = tls13_secrets(provider, suite);
            let (ConnectionTrafficSecrets::Aes128Gcm { key: tk, iv: ti }
            | ConnectionTrafficSecrets::Aes256Gcm { key: tk, iv: ti }) = tx
            else {
                unreachable!()
            };
            let (ConnectionTrafficSecrets::Aes128Gcm { key: rk, iv: ri }
            | ConnectionTrafficSecrets::Aes256Gcm { key: rk, iv: ri }) = rx
            else {
                unreachable!()
            };
            sides.push((
                *name,
                *peer,
                tls13.aead_alg.encrypter(tk, ti),
                tls13.aead_alg.decrypter(rk, ri),
                0u64,
            ));
        }
        for &size in sizes {
            let plain = vec![0x5a_u8; size];
            let message = || OutboundPlainMessage {
                typ: ContentType::ApplicationData,
                version: ProtocolVersion::TLSv1_2,
                payload: OutboundChunks::Single(&plain),
            };
            let mut seal_entries = Vec::new();
            let mut open_entries = Vec::new();
            // Each side's sequence number goes up by one per record sealed,
            // as on a connection (aws-lc-rs's sealing key refuses one used
            // before); the check record's is the one the open entry uses.
            for (name, peer, enc, dec, seq) in sides.iter_mut() {
                let first = *seq;
                *seq += 1;
                let record = enc.encrypt(message(), first).unwrap().encode();
                let mut buf = record[5..].to_vec();
                let opened = dec
                    .decrypt(
                        InboundOpaqueMessage::new(
                            ContentType::ApplicationData,
                            ProtocolVersion::TLSv1_2,
                            &mut buf,
                        ),
                        first,
                    )
                    .expect("the record opens");
                assert_eq!(opened.payload, &plain[..], "{name}: opened");
                let plain = &plain;
                seal_entries.push(Entry {
                    name: name.to_string(),
                    peer: *peer,
                    call: Box::new(move || {
                        let m = OutboundPlainMessage {
                            typ: ContentType::ApplicationData,
                            version: ProtocolVersion::TLSv1_2,
                            payload: OutboundChunks::Single(plain),
                        };
                        let this = *seq;
                        *seq += 1;
                        black_box(enc.encrypt(m, this).unwrap());
                    }),
                });
                let mut work = vec![0u8; record.len() - 5];
                open_entries.push(Entry {
                    name: name.to_string(),
                    peer: *peer,
                    call: Box::new(move || {
                        work.copy_from_slice(&record[5..]);
                        let msg = InboundOpaqueMessage::new(
                            ContentType::ApplicationData,
                            ProtocolVersion::TLSv1_2,
                            &mut work,
                        );
                        black_box(dec.decrypt(msg, first).unwrap().payload.len());
                    }),
                });
            }
            run(
                &format!("rustls TLS 1.3 {title} seal record {size} B"),
                size,
                rounds,
                &mut seal_entries,
            );
            run(
                &format!("rustls TLS 1.3 {title} open record {size} B"),
                size,
                rounds,
                &mut open_entries,
            );
        }
    }
}

/// 64 MiB from a rustls client to a rustls server over loopback TCP in
/// 16 KiB writes (TLS 1.3, `suite`, the same provider on both sides, the
/// handshake excluded): this crate's provider against rustls's ring and
/// aws-lc-rs providers, `rounds` transfers each, interleaved; median
/// seconds and the rate.
fn rustls_transfer_cases(rounds: usize) {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
    use rustls::{
        ClientConfig, ClientConnection, RootCertStore, ServerConfig, ServerConnection, StreamOwned,
    };
    use std::io::{Read, Write};
    use std::sync::Arc;
    const TOTAL: usize = 64 << 20;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../hardware-aead-rustls/tests/fixtures");
    let providers = [
        (
            "hw/new",
            hardware_aead_rustls::provider().expect("a supported CPU"),
        ),
        ("ring", rustls::crypto::ring::default_provider()),
        ("aws-lc-rs", rustls::crypto::aws_lc_rs::default_provider()),
    ];
    for (title, id) in [
        ("AES-128-GCM", rustls::CipherSuite::TLS13_AES_128_GCM_SHA256),
        ("AES-256-GCM", rustls::CipherSuite::TLS13_AES_256_GCM_SHA384),
    ] {
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); providers.len()];
        for _ in 0..rounds {
            for (i, (_, provider)) in providers.iter().enumerate() {
                let suite = *provider
                    .cipher_suites
                    .iter()
                    .find(|s| s.suite() == id)
                    .unwrap();
                let provider = Arc::new(rustls::crypto::CryptoProvider {
                    cipher_suites: vec![suite],
                    ..provider.clone()
                });
                let server_config = Arc::new(
                    ServerConfig::builder_with_provider(provider.clone())
                        .with_protocol_versions(&[&rustls::version::TLS13])
                        .unwrap()
                        .with_no_client_auth()
                        .with_single_cert(
                            vec![CertificateDer::from_pem_file(dir.join("ecdsa.pem")).unwrap()],
                            PrivateKeyDer::from_pem_file(dir.join("ecdsa.key")).unwrap(),
                        )
                        .unwrap(),
                );
                let mut roots = RootCertStore::empty();
                roots
                    .add(CertificateDer::from_pem_file(dir.join("ca-ecdsa.pem")).unwrap())
                    .unwrap();
                let client_config = Arc::new(
                    ClientConfig::builder_with_provider(provider)
                        .with_protocol_versions(&[&rustls::version::TLS13])
                        .unwrap()
                        .with_root_certificates(roots)
                        .with_no_client_auth(),
                );
                let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
                let addr = listener.local_addr().unwrap();
                let server = std::thread::spawn(move || {
                    let (tcp, _) = listener.accept().unwrap();
                    let mut tls =
                        StreamOwned::new(ServerConnection::new(server_config).unwrap(), tcp);
                    let mut buf = vec![0u8; 1 << 16];
                    let mut got = 0;
                    while got < TOTAL {
                        got += tls.read(&mut buf).unwrap();
                    }
                    tls.write_all(b"k").unwrap();
                    tls.flush().unwrap();
                });
                let tcp = std::net::TcpStream::connect(addr).unwrap();
                let conn = ClientConnection::new(
                    client_config,
                    ServerName::try_from("localhost").unwrap(),
                )
                .unwrap();
                let mut tls = StreamOwned::new(conn, tcp);
                // The handshake first (a one-byte round trip would add the
                // server's reply to the time): complete it, then time.
                while tls.conn.is_handshaking() {
                    tls.conn.complete_io(&mut tls.sock).unwrap();
                }
                let chunk = vec![0x5a_u8; 16 << 10];
                let start = Instant::now();
                for _ in 0..TOTAL / chunk.len() {
                    tls.write_all(&chunk).unwrap();
                }
                tls.flush().unwrap();
                let mut ack = [0u8; 1];
                tls.read_exact(&mut ack).unwrap();
                times[i].push(start.elapsed().as_secs_f64());
                server.join().unwrap();
            }
        }
        println!(
            "rustls TLS 1.3 {title}, 64 MiB over loopback TCP (handshake excluded), {rounds} transfers"
        );
        let medians: Vec<f64> = times
            .iter_mut()
            .map(|t| {
                t.sort_by(f64::total_cmp);
                t[t.len() / 2]
            })
            .collect();
        let best_peer = medians[1..].iter().copied().fold(f64::INFINITY, f64::min);
        for ((name, _), m) in providers.iter().zip(&medians) {
            let ratio = if *name == "hw/new" {
                format!("  {:.2}x best peer's time", m / best_peer)
            } else {
                String::new()
            };
            println!(
                "  {name:<14} {:10.1} ms {:7.2} GB/s{ratio}",
                m * 1e3,
                TOTAL as f64 / m / 1e9
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = args.first().and_then(|r| r.parse().ok()).unwrap_or(21);
    let record_sizes: Vec<usize> = match args.get(1) {
        Some(list) => list
            .split(',')
            .map(|s| s.parse().expect("a size in bytes"))
            .collect(),
        None => vec![16, 1024, 16384],
    };
    println!("{}; {rounds} rounds", timing::cpu_line());
    rustls_cases(rounds, &record_sizes);
    rustls_transfer_cases(rounds.min(7));
}
