//! noq (n0-computer's QUIC, the stack under iroh) with this crate's
//! provider: a client and a server echo streams over loopback UDP with
//! this crate on the client, on the server, and on both, for each TLS 1.3
//! AES-GCM suite. noq seals and opens every packet through the multipath
//! calls (`encrypt_in_place_for_path`, `decrypt_in_place_for_path`); its
//! Initial packets use the AES-128-GCM suite, whichever suite the
//! handshake then picks.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{CipherSuite, RootCertStore};

/// A file of `tests/fixtures`.
fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// `base`'s two TLS 1.3 AES-GCM suites alone, `first` first: the suite
/// the handshake picks, and AES-128-GCM for the Initial packets.
fn tls13_aes(base: CryptoProvider, first: CipherSuite) -> Arc<CryptoProvider> {
    let mut suites: Vec<_> = base
        .cipher_suites
        .iter()
        .copied()
        .filter(|s| {
            [
                CipherSuite::TLS13_AES_128_GCM_SHA256,
                CipherSuite::TLS13_AES_256_GCM_SHA384,
            ]
            .contains(&s.suite())
        })
        .collect();
    suites.sort_by_key(|s| s.suite() != first);
    assert_eq!(suites.len(), 2);
    Arc::new(CryptoProvider {
        cipher_suites: suites,
        ..base
    })
}

fn server_endpoint(provider: Arc<CryptoProvider>) -> noq::Endpoint {
    let chain = vec![CertificateDer::from_pem_file(data("ecdsa.pem")).unwrap()];
    let key = PrivateKeyDer::from_pem_file(data("ecdsa.key")).unwrap();
    let tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
    let quic = noq::crypto::rustls::QuicServerConfig::try_from(tls).unwrap();
    let config = noq::ServerConfig::with_crypto(Arc::new(quic));
    noq::Endpoint::server(config, SocketAddr::from((Ipv4Addr::LOCALHOST, 0))).unwrap()
}

fn client_endpoint(provider: Arc<CryptoProvider>) -> noq::Endpoint {
    let mut roots = RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_file(data("ca-ecdsa.pem")).unwrap())
        .unwrap();
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let quic = noq::crypto::rustls::QuicClientConfig::try_from(tls).unwrap();
    let endpoint = noq::Endpoint::client(SocketAddr::from((Ipv4Addr::LOCALHOST, 0))).unwrap();
    endpoint.set_default_client_config(noq::ClientConfig::new(Arc::new(quic)));
    endpoint
}

/// `n` bytes of a pattern that differs per stream and position.
fn pattern(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[i % 4] ^ seed)
        .collect()
}

/// A connection from a client with `client` to a server with `server`;
/// the client sends `STREAMS` streams of 256 KiB, the server echoes each,
/// and the client checks every byte.
async fn echo(client: Arc<CryptoProvider>, server: Arc<CryptoProvider>, label: &str) {
    const STREAMS: u8 = 4;
    const SIZE: usize = 256 << 10;
    let server = server_endpoint(server);
    let addr = server.local_addr().unwrap();
    let serving = tokio::spawn(async move {
        let connection = server.accept().await.unwrap().await.unwrap();
        for _ in 0..STREAMS {
            let (mut send, mut recv) = connection.accept_bi().await.unwrap();
            let got = recv.read_to_end(SIZE).await.unwrap();
            send.write_all(&got).await.unwrap();
            send.finish().unwrap();
        }
        connection.closed().await;
        server.wait_idle().await;
    });
    let client = client_endpoint(client);
    let connection = client.connect(addr, "localhost").unwrap().await.unwrap();
    for seed in 0..STREAMS {
        let (mut send, mut recv) = connection.open_bi().await.unwrap();
        let sent = pattern(SIZE, seed);
        send.write_all(&sent).await.unwrap();
        send.finish().unwrap();
        let back = recv.read_to_end(SIZE).await.unwrap();
        assert!(back == sent, "{label}: stream {seed} came back changed");
    }
    connection.close(0u8.into(), b"done");
    client.wait_idle().await;
    serving.await.unwrap();
}

#[tokio::test]
async fn noq_echoes_streams_with_this_provider_on_either_side_and_both() {
    let ours = || hardware_aead_rustls::provider().expect("a CPU hardware-aead supports");
    let ring = rustls::crypto::ring::default_provider;
    for suite in [
        CipherSuite::TLS13_AES_128_GCM_SHA256,
        CipherSuite::TLS13_AES_256_GCM_SHA384,
    ] {
        echo(
            tls13_aes(ours(), suite),
            tls13_aes(ring(), suite),
            &format!("{suite:?}: this crate's client, ring's server"),
        )
        .await;
        echo(
            tls13_aes(ring(), suite),
            tls13_aes(ours(), suite),
            &format!("{suite:?}: ring's client, this crate's server"),
        )
        .await;
        echo(
            tls13_aes(ours(), suite),
            tls13_aes(ours(), suite),
            &format!("{suite:?}: this crate on both sides"),
        )
        .await;
    }
}
