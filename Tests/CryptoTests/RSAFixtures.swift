/// A 2048-bit RSA key pair made once with the openssl command line for these tests:
///   openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out priv.pem
///   openssl pkey -in priv.pem -pubout -out pub.pem
///   openssl dgst -sha256 -sign priv.pem -out sig.bin msg.txt && base64 -w0 sig.bin
/// The private key was discarded; only the public half and one signature are kept.
enum RSAFixtures {
    static let publicKeyPEM = """
        -----BEGIN PUBLIC KEY-----
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA2i6eh44wTVNpG8xkls9O
        iXPu8xylOgAdLQVUDdKD4Xpkdy4F2ue9oGtGoKG7JUJW3gzRHwNOt2qMGnRGBzRO
        QefYr+Ud3cLk8ZW9CIWug1GAHLT/SZZ2SDL+A1HPL/VO9EB6LqDQlstf2Bf58VEc
        7+YmPlRTNOm67KLhSc4DxzTBKivPh4fziRowLhPT5Y0UK77HDYgvui1V1vj/zqiI
        38tsLlHTf2zmNrTKZvwl04PLbITW/ftUUZmHUp75BJz31574RRy/uTUmv1Mwha8g
        KanMqBgVK1o2cI1txfgM0DH4jd1V4Z7AMDQvKQ58UCpNg3WzGxYN9FxtdF3P86mC
        FQIDAQAB
        -----END PUBLIC KEY-----
        """

    /// The same key as one base64 line without header lines, the way Alipay hands keys out.
    static let publicKeyBareBase64 =
        "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA2i6eh44wTVNpG8xkls9O"
        + "iXPu8xylOgAdLQVUDdKD4Xpkdy4F2ue9oGtGoKG7JUJW3gzRHwNOt2qMGnRGBzRO"
        + "QefYr+Ud3cLk8ZW9CIWug1GAHLT/SZZ2SDL+A1HPL/VO9EB6LqDQlstf2Bf58VEc"
        + "7+YmPlRTNOm67KLhSc4DxzTBKivPh4fziRowLhPT5Y0UK77HDYgvui1V1vj/zqiI"
        + "38tsLlHTf2zmNrTKZvwl04PLbITW/ftUUZmHUp75BJz31574RRy/uTUmv1Mwha8g"
        + "KanMqBgVK1o2cI1txfgM0DH4jd1V4Z7AMDQvKQ58UCpNg3WzGxYN9FxtdF3P86mC"
        + "FQIDAQAB"

    /// An unrelated RSA public key that did not make the signature.
    static let otherPublicKeyPEM = """
        -----BEGIN PUBLIC KEY-----
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAzA+pioKARlyUhSSKTv7T
        i/5BprrRvr63h6Zc4VxW+6NhA4w+vNdKHTPpPx5GEYYe5hJ2m6fWZ+bDbknHvfa9
        yHh18Fm8Vg3FDfCE/GkWzODbrFc0kg0k4q7fVAgbf4KvVY5AWjDSiFV2iKjyZsED
        SgkIPXyh+9yJqUvXmmcEg/H1YtVbIERZUbSYbi1e+n+68fRrR9a/FvjCFgOJti53
        1mCZZRifB7gVvjKb2BBYpYMWh/m7GpkLcDUabf0R4sL2US9PNkek0I9sXfMZE8VE
        +9NuAji0Z+sPOcq+g/X3oDqEw71Swg64dIxbWuA9y12dxWox0t38esvEVPWUln2v
        MQIDAQAB
        -----END PUBLIC KEY-----
        """

    /// A P-256 public key: well-formed, but not RSA.
    static let ecPublicKeyPEM = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEXi+MHeXS7OwCjKUDuc/HAGUXQdwz
        Duqlp0YfXUYPFP16LY459PoY0JUIsPUFgCwOIyTHUzylx5s1jvTUKMlaag==
        -----END PUBLIC KEY-----
        """

    /// An Alipay-style sign string, signed as its exact UTF-8 bytes.
    static let message = #"app_id=2021000000000000&biz_content={"out_trade_no":"FS-20240501-0001","total_amount":"88.00"}&charset=utf-8&method=alipay.trade.page.pay&timestamp=2024-05-01 10:00:00"#

    /// `openssl dgst -sha256 -sign` of `message`, base64.
    static let signatureBase64 =
        "fxto6UGwLIlmm/sGxdCgUOX0JlkZAf7Bpk/dxdnO2ynS/obA5aUcB4BQjapEGR9162NU1yZ7saZC9bOm9om7hNFs"
        + "1ZvetKuamBo0wA2PmfKRIDAp50m1L9ujHX1ZephPkskvrT+CZycbKkcxtpoFnIwIDl0e0XVgJqbFCfXlOWbu51uO"
        + "Kvc9raxWjAhDh9TmkSZB4kYUdUiKMTvxtFsQWb++rVEo3RMP9IyH5HgPgm1ANB+UdmYloCDPAxBcqVon5P7XLQdW"
        + "EDf2+bZ6yz+5Px+ESnsVDwx1tFc6uFcb7A1HloGhRNkvwDoDDsm092Pg6AUHduwKIA31DRcchXZahQ=="
}
