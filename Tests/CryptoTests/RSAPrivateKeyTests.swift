import Crypto
import Testing

/// A key pair made for these tests only (`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`),
/// the same key in PKCS#1 form (`openssl rsa -traditional`), and a signature by `openssl dgst -sha256 -sign`.
enum RSAPrivateFixtures {
    static let pkcs8PEM = """
-----BEGIN PRIVATE KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQC5mpC82/8R1/p/
odqf5BsYPRg0quqUKMYiCmGK0/QSe5xqyqZ0//CqzBuXNFBEsVWR5EdZkDPSE/04
QSor4G4VRRPTw6TN6nIouuT9/NbOCwaw4crgLhLFN21l3PijPfpuF6cca0F+Hwdr
lL23iVsxkTBQrss+twpJKQicjMnwWBsFvozs6VkeqpKj0TgvMIf81zNptIHep2VV
ZhK2mNvSMo3rrD7FOf+ApqVDkHudu2QZSbI4N8uYgZO1wH7tHdXarcU6eYAvyk/D
QezRFom36H0suUWrdR0Z3rDGLn5lHDsIzZAAlRP88KetHHwVSGaujJANU0soJfiT
rS0VAp47AgMBAAECggEADWFHot3HLw2fWNkdrh4fF+m7l3xkycaAtg6ChqQN+dEg
bxBp3JBg1Kc/K/DRAoq4LPrEa//5xGC9hfMoq54TwYPH0KHPfSq0DRygCnFSOOtR
kanNWsjngIEk6U17PSVoKsyYtvNCdumcutQvsw37XYDmd0KKk1xVqP2EyehaXHGV
+/yB5c2rl06jOslMbmjdbhpR12XcLfhwsBcZIwPPWKS2gH2inbA02/19tNvxNeMB
/yLcrz1ojAwz2t/x3DcMEFRlSYd4yzWpQv2Bzr+nt2fiohk/7HDxm8WJk4EdRRos
HCuk7mQSbPn2CWUv46xKByxC2bvq2hYBAu5cbSlORQKBgQDvcaL19sYSPdFM5Jl8
pUf/IMu4R8mqov6426t5LuzZKg5omTOp8PrsXkm+Q1uGmxdAc069qe5XgzrSyncH
ceAELu3jAbL/Ewh9JATVqvcscFmGXoCOBroGbmdD9SrztXHqFccQ5FFmfPYJvo/G
7IcZRKOT4IuotxmXw1lr9Vl5pwKBgQDGb+mHSPT0MTiAbyE71sgc+ktCr7XQ4BsT
/tj1XlTHbzdK44utD0OfrlwNQ5QhXtpwh6vMwD206ykejDO5veUTMCCSVEK1F/bR
XhfLaSAEON5e+nGAsFxej/yKUXpGUbzWEJjRvdiCLQbjpkD+slmNmUCu6A7UbXrb
flnphJGhTQKBgAlyuHVwKVyq58la89uBQhgFGUTKQGDlUZvFvzxm552iFTN3aBx6
j8wn5E0Hp2LmV8KJSkAdpnP5j6alqpC2o5pGp8hfVsrN23Xkp/QubNZqEH5G2FfC
WDDMxnJeCDXZoQcVmOdHuxaKM8Mqq82zo5kRpkq9f4VGxFHCuZKS+dbdAoGBAJAk
OLkJeM1sd4NrtfNWh9PsyABvzB0mvOSgaQ6K8ABSPBLNCOezv8ZdDAaigRZgZUH6
ewPm3KvvadYDt4sDckOm4PIJ/M640pOwyo36FcSbXoQVXZ9B/EbARoxetPghZY8F
TUyFn6CnfmqcmHeqK7zchozGigcqY2TO+hbTMkm9AoGBAIvI2SawJ93+siHTabt7
2mvkeNzgTKfZJ8cfpCrWqNNtA1qWKHikkvmW3+VIFjaxgHJ9jaaav+SZ0+EEVTJo
pKKBNt4s+R5WDJSraaYCxJ9nsszdP1gB6qnJF6EfX4BFK37RlqnKbO8qDU7AXNpI
wfieFpq2GNYoTj/vwsBmor9Y
-----END PRIVATE KEY-----
"""

    static let pkcs1PEM = """
-----BEGIN RSA PRIVATE KEY-----
MIIEpAIBAAKCAQEAuZqQvNv/Edf6f6Han+QbGD0YNKrqlCjGIgphitP0Enucasqm
dP/wqswblzRQRLFVkeRHWZAz0hP9OEEqK+BuFUUT08OkzepyKLrk/fzWzgsGsOHK
4C4SxTdtZdz4oz36bhenHGtBfh8Ha5S9t4lbMZEwUK7LPrcKSSkInIzJ8FgbBb6M
7OlZHqqSo9E4LzCH/NczabSB3qdlVWYStpjb0jKN66w+xTn/gKalQ5B7nbtkGUmy
ODfLmIGTtcB+7R3V2q3FOnmAL8pPw0Hs0RaJt+h9LLlFq3UdGd6wxi5+ZRw7CM2Q
AJUT/PCnrRx8FUhmroyQDVNLKCX4k60tFQKeOwIDAQABAoIBAA1hR6Ldxy8Nn1jZ
Ha4eHxfpu5d8ZMnGgLYOgoakDfnRIG8QadyQYNSnPyvw0QKKuCz6xGv/+cRgvYXz
KKueE8GDx9Chz30qtA0coApxUjjrUZGpzVrI54CBJOlNez0laCrMmLbzQnbpnLrU
L7MN+12A5ndCipNcVaj9hMnoWlxxlfv8geXNq5dOozrJTG5o3W4aUddl3C34cLAX
GSMDz1iktoB9op2wNNv9fbTb8TXjAf8i3K89aIwMM9rf8dw3DBBUZUmHeMs1qUL9
gc6/p7dn4qIZP+xw8ZvFiZOBHUUaLBwrpO5kEmz59gllL+OsSgcsQtm76toWAQLu
XG0pTkUCgYEA73Gi9fbGEj3RTOSZfKVH/yDLuEfJqqL+uNureS7s2SoOaJkzqfD6
7F5JvkNbhpsXQHNOvanuV4M60sp3B3HgBC7t4wGy/xMIfSQE1ar3LHBZhl6Ajga6
Bm5nQ/Uq87Vx6hXHEORRZnz2Cb6PxuyHGUSjk+CLqLcZl8NZa/VZeacCgYEAxm/p
h0j09DE4gG8hO9bIHPpLQq+10OAbE/7Y9V5Ux283SuOLrQ9Dn65cDUOUIV7acIer
zMA9tOspHowzub3lEzAgklRCtRf20V4Xy2kgBDjeXvpxgLBcXo/8ilF6RlG81hCY
0b3Ygi0G46ZA/rJZjZlArugO1G16235Z6YSRoU0CgYAJcrh1cClcqufJWvPbgUIY
BRlEykBg5VGbxb88ZuedohUzd2gceo/MJ+RNB6di5lfCiUpAHaZz+Y+mpaqQtqOa
RqfIX1bKzdt15Kf0LmzWahB+RthXwlgwzMZyXgg12aEHFZjnR7sWijPDKqvNs6OZ
EaZKvX+FRsRRwrmSkvnW3QKBgQCQJDi5CXjNbHeDa7XzVofT7MgAb8wdJrzkoGkO
ivAAUjwSzQjns7/GXQwGooEWYGVB+nsD5tyr72nWA7eLA3JDpuDyCfzOuNKTsMqN
+hXEm16EFV2fQfxGwEaMXrT4IWWPBU1MhZ+gp35qnJh3qiu83IaMxooHKmNkzvoW
0zJJvQKBgQCLyNkmsCfd/rIh02m7e9pr5Hjc4Eyn2SfHH6Qq1qjTbQNalih4pJL5
lt/lSBY2sYByfY2mmr/kmdPhBFUyaKSigTbeLPkeVgyUq2mmAsSfZ7LM3T9YAeqp
yRehH1+ARSt+0ZapymzvKg1OwFzaSMH4nhaathjWKE4/78LAZqK/WA==
-----END RSA PRIVATE KEY-----
"""

    static let bareBase64 = "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQC5mpC82/8R1/p/odqf5BsYPRg0quqUKMYiCmGK0/QSe5xqyqZ0//CqzBuXNFBEsVWR5EdZkDPSE/04QSor4G4VRRPTw6TN6nIouuT9/NbOCwaw4crgLhLFN21l3PijPfpuF6cca0F+HwdrlL23iVsxkTBQrss+twpJKQicjMnwWBsFvozs6VkeqpKj0TgvMIf81zNptIHep2VVZhK2mNvSMo3rrD7FOf+ApqVDkHudu2QZSbI4N8uYgZO1wH7tHdXarcU6eYAvyk/DQezRFom36H0suUWrdR0Z3rDGLn5lHDsIzZAAlRP88KetHHwVSGaujJANU0soJfiTrS0VAp47AgMBAAECggEADWFHot3HLw2fWNkdrh4fF+m7l3xkycaAtg6ChqQN+dEgbxBp3JBg1Kc/K/DRAoq4LPrEa//5xGC9hfMoq54TwYPH0KHPfSq0DRygCnFSOOtRkanNWsjngIEk6U17PSVoKsyYtvNCdumcutQvsw37XYDmd0KKk1xVqP2EyehaXHGV+/yB5c2rl06jOslMbmjdbhpR12XcLfhwsBcZIwPPWKS2gH2inbA02/19tNvxNeMB/yLcrz1ojAwz2t/x3DcMEFRlSYd4yzWpQv2Bzr+nt2fiohk/7HDxm8WJk4EdRRosHCuk7mQSbPn2CWUv46xKByxC2bvq2hYBAu5cbSlORQKBgQDvcaL19sYSPdFM5Jl8pUf/IMu4R8mqov6426t5LuzZKg5omTOp8PrsXkm+Q1uGmxdAc069qe5XgzrSyncHceAELu3jAbL/Ewh9JATVqvcscFmGXoCOBroGbmdD9SrztXHqFccQ5FFmfPYJvo/G7IcZRKOT4IuotxmXw1lr9Vl5pwKBgQDGb+mHSPT0MTiAbyE71sgc+ktCr7XQ4BsT/tj1XlTHbzdK44utD0OfrlwNQ5QhXtpwh6vMwD206ykejDO5veUTMCCSVEK1F/bRXhfLaSAEON5e+nGAsFxej/yKUXpGUbzWEJjRvdiCLQbjpkD+slmNmUCu6A7UbXrbflnphJGhTQKBgAlyuHVwKVyq58la89uBQhgFGUTKQGDlUZvFvzxm552iFTN3aBx6j8wn5E0Hp2LmV8KJSkAdpnP5j6alqpC2o5pGp8hfVsrN23Xkp/QubNZqEH5G2FfCWDDMxnJeCDXZoQcVmOdHuxaKM8Mqq82zo5kRpkq9f4VGxFHCuZKS+dbdAoGBAJAkOLkJeM1sd4NrtfNWh9PsyABvzB0mvOSgaQ6K8ABSPBLNCOezv8ZdDAaigRZgZUH6ewPm3KvvadYDt4sDckOm4PIJ/M640pOwyo36FcSbXoQVXZ9B/EbARoxetPghZY8FTUyFn6CnfmqcmHeqK7zchozGigcqY2TO+hbTMkm9AoGBAIvI2SawJ93+siHTabt72mvkeNzgTKfZJ8cfpCrWqNNtA1qWKHikkvmW3+VIFjaxgHJ9jaaav+SZ0+EEVTJopKKBNt4s+R5WDJSraaYCxJ9nsszdP1gB6qnJF6EfX4BFK37RlqnKbO8qDU7AXNpIwfieFpq2GNYoTj/vwsBmor9Y"

    static let publicKeyPEM = """
-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAuZqQvNv/Edf6f6Han+Qb
GD0YNKrqlCjGIgphitP0EnucasqmdP/wqswblzRQRLFVkeRHWZAz0hP9OEEqK+Bu
FUUT08OkzepyKLrk/fzWzgsGsOHK4C4SxTdtZdz4oz36bhenHGtBfh8Ha5S9t4lb
MZEwUK7LPrcKSSkInIzJ8FgbBb6M7OlZHqqSo9E4LzCH/NczabSB3qdlVWYStpjb
0jKN66w+xTn/gKalQ5B7nbtkGUmyODfLmIGTtcB+7R3V2q3FOnmAL8pPw0Hs0RaJ
t+h9LLlFq3UdGd6wxi5+ZRw7CM2QAJUT/PCnrRx8FUhmroyQDVNLKCX4k60tFQKe
OwIDAQAB
-----END PUBLIC KEY-----
"""

    static let ecPrivatePEM = """
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgPGTktKyAheGRjIjT
aYGAEotuHfFUk2GtNDSjD8vbJE6hRANCAATBDDZCtEDI+NniknBY9RtuX+EzIxM3
MeWrR/sGspS4mBzyNbGlk7JNtdnXJTAnpds6KyY4pcW+zQk7eaRVLymX
-----END PRIVATE KEY-----
"""

    static let message = "app_id=2021000148600001&charset=utf-8&method=alipay.trade.app.pay&sign_type=RSA2&timestamp=2026-12-01 00:00:00&version=1.0"

    /// `openssl dgst -sha256 -sign` of `message` with the key, base64: PKCS#1 v1.5 is deterministic.
    static let opensslSignature = "s6X98E3TAGrenCLiWWCpOBRLR+Ml+i5CcB44cznk9WuJDV01lgpCTohJuPPn9Iw7sGwNXt2eCVguKXeqCuB3YVvDTp0CnFLfe+I7bnCUjYGOrSKOIQBv1YjGV70jM+danbC9RyST+lnK8SYDGFAvbdslOE7QE9rmTAouG8hW7gdkrreBeZpwDv6whESG0nO0IzjasGTAmuywauSdP6O2EOYjySWRyjKKUV+9NYu2QFH/yIcHe+j6mF+Y2Xjrz+ReOfgdD5wocBRglVzN45T5dJpglfWUPDU7Q2H37F/gXQXwv8cGo4Xjx8UFlUCyPnsasyIlqHp9qOmkVPif1zNhZw=="
}

@Suite("RSA private key: signing SHA256withRSA")
struct RSAPrivateKeyTests {
    @Test func aSignatureIsByteForByteWhatOpenSSLsCommandLineMakes() throws {
        let key = try RSAPrivateKey(pem: RSAPrivateFixtures.pkcs8PEM)
        let signature = try key.signSHA256(Array(RSAPrivateFixtures.message.utf8))
        #expect(Base64.encode(signature) == RSAPrivateFixtures.opensslSignature)
    }

    @Test func thePublicKeyVerifiesWhatThePrivateKeySignsAndNothingElse() throws {
        let publicKey = try RSAPublicKey(pem: RSAPrivateFixtures.publicKeyPEM)
        for pem in [RSAPrivateFixtures.pkcs8PEM, RSAPrivateFixtures.pkcs1PEM, RSAPrivateFixtures.bareBase64] {
            let signature = try RSAPrivateKey(pem: pem).signSHA256(Array("total_amount=129.00".utf8))
            #expect(signature.count == 256)
            #expect(publicKey.verifySHA256(signature: signature, message: Array("total_amount=129.00".utf8)))
            #expect(!publicKey.verifySHA256(signature: signature, message: Array("total_amount=1.29".utf8)))
        }
    }

    @Test func anythingButAnRSAPrivateKeyIsRefused() {
        for text in ["", "not a key", RSAPrivateFixtures.publicKeyPEM, RSAPrivateFixtures.ecPrivatePEM,
                     "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"] {
            #expect(throws: CryptoError.self) { try RSAPrivateKey(pem: text) }
        }
    }
}
