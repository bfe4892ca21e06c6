//! A TLS server and client in one process, both with hardware-aead's AES-GCM
//! under rustls: the client sends a line over loopback
//! TCP, the server sends it back upper-cased.
//!
//! ```text
//! cargo run -p hardware-aead-rustls --example echo
//! ```
//!
//! The certificates are the test ones of `hardware-aead-rustls/tests/fixtures` (a CA and a
//! `localhost` leaf whose keys are public): use your own.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::{
    ClientConfig, ClientConnection, RootCertStore, ServerConfig, ServerConnection, StreamOwned,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The one line that puts this crate under rustls: ring's provider with
    // its AES-GCM suites replaced (an error, not a fallback, on a CPU
    // without AES instructions).
    let provider = Arc::new(hardware_aead_rustls::provider()?);

    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let server_config = Arc::new(
        ServerConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()?
            .with_no_client_auth()
            .with_single_cert(
                vec![CertificateDer::from_pem_file(dir.join("ecdsa.pem"))?],
                PrivateKeyDer::from_pem_file(dir.join("ecdsa.key"))?,
            )?,
    );
    let mut roots = RootCertStore::empty();
    roots.add(CertificateDer::from_pem_file(dir.join("ca-ecdsa.pem"))?)?;
    let client_config = Arc::new(
        ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_root_certificates(roots)
            .with_no_client_auth(),
    );

    let listener = TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    let server = std::thread::spawn(
        move || -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
            let (tcp, _) = listener.accept()?;
            let mut tls =
                BufReader::new(StreamOwned::new(ServerConnection::new(server_config)?, tcp));
            let mut line = String::new();
            tls.read_line(&mut line)?;
            let tls = tls.get_mut();
            tls.write_all(line.to_uppercase().as_bytes())?;
            tls.conn.send_close_notify();
            tls.flush()?;
            Ok(())
        },
    );

    let conn = ClientConnection::new(client_config, ServerName::try_from("localhost")?)?;
    let mut tls = BufReader::new(StreamOwned::new(conn, TcpStream::connect(addr)?));
    tls.get_mut().write_all(b"sealed by hardware-aead\n")?;
    let mut reply = String::new();
    tls.read_line(&mut reply)?;
    let suite = tls
        .get_ref()
        .conn
        .negotiated_cipher_suite()
        .map(|s| s.suite());
    println!("suite: {suite:?}");
    print!("reply: {reply}");
    server
        .join()
        .map_err(|_| "the server thread panicked")?
        .map_err(|e| e.to_string())?;
    Ok(())
}
