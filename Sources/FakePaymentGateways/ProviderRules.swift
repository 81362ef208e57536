import Crypto
import Foundation

/// The fixed keys and ids of the fake gateways, shared by the tests and `fake-payments`: made for
/// tests and local runs only (`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`), public
/// in this repository, so never a real merchant's. "other" plays the merchant's own key pair.
public enum FakeGatewayKeys {
    /// The API key of WeChat's published v2 signature example.
    public static let wechatAPIKey = "192006250b4c09247ec02edce69f6a2d"
    public static let wechatAppID = "wx2421b1c4370ec43b"
    public static let wechatMchID = "10000100"
    public static let alipayAppID = "2021000148600001"
    public static let alipaySellerID = "2088102146225135"

    public static let alipayPublicPEM = """
-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEApUEqu5XL5JfmBYDXj87m
k7uqQ2DrQFjxk129nMypYr3quNlrY/2zNLcYm6lyimP1jqK02HZqtniTBNcY5wJh
jG4UBc7z9Cfw+g6D8+BBU3OAa40SXv7oX3dk/SEblHeTXC4tijgIhjJNF3ysJiLz
T8atV4RF43EW7LiuU+2Q35gf7qZa+2r2U+DgHZK/pFzXLz9rftiHdPoy6eVik2lc
tpoE/tlENbRkoHBq/qb58xdPvQoa49jeK0lu5rKu8IaVM3vsHNSvF8brJ55E/7Jc
rYdUxDlL7faNLuo/ChK+h4FQ6UFgMJ2tzYgoq75FfLwhcjbub8s5hsyi3jOdVvP7
WwIDAQAB
-----END PUBLIC KEY-----
"""

    public static let alipayPrivatePEM = """
-----BEGIN PRIVATE KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQClQSq7lcvkl+YF
gNePzuaTu6pDYOtAWPGTXb2czKliveq42Wtj/bM0txibqXKKY/WOorTYdmq2eJME
1xjnAmGMbhQFzvP0J/D6DoPz4EFTc4BrjRJe/uhfd2T9IRuUd5NcLi2KOAiGMk0X
fKwmIvNPxq1XhEXjcRbsuK5T7ZDfmB/uplr7avZT4OAdkr+kXNcvP2t+2Id0+jLp
5WKTaVy2mgT+2UQ1tGSgcGr+pvnzF0+9Chrj2N4rSW7msq7whpUze+wc1K8Xxusn
nkT/slyth1TEOUvt9o0u6j8KEr6HgVDpQWAwna3NiCirvkV8vCFyNu5vyzmGzKLe
M51W8/tbAgMBAAECggEACqx33x/gyIYLJGXbBn3dpMMlTy7OYxybleIjIiKR+j+8
Dm50okO7tHbzDvLV5BxquujFd4nGgLyu+kwOXrVnqZNelbV1SlreFLilSzY74fD+
5XN6MUqTpb7ndfYSevdyPCz7YgcWfdx34EF8OQZe4tM5VQLFJNikG2weTmt0xQxK
s4Sw3BeZU+Ly4/DUWPs/ma242eYMyhSMJWoazxMRPqcUVszmJzGHn29ujIs2t7kb
oXhJvPKgKwQ8REzAAeFXDIzg1qN+wnX29BsNzm/Ia84otFw1z7mS4G36STl7/mmh
7WwznK+I99SFlIy0x/eQopG5G51fiaQhlaMPvfKfaQKBgQDe/iFa8snqGJ/OscLm
33PwNl0sPcvTtXZ46PanQWRoENufoCSjI9nM2a/dEANdIfx0LiVDCblEh6qCd/oK
rfbSIwtO11FYJbaZPl6ICFWHKFtpgEFO+aHXKZTOeMwW5g7HhzKyqXn5ouujpuDE
DFyC9SfUQGbk6n9AYMhqbrHbtwKBgQC9tynWjzk+VnPC7axjwdmQ+mBPXS1wbdmX
K8uzsH4C/1nxn7RE5ZqPAmEfUiNyEDF0aNvRykGkTgVqUEzaSdu5weJor4JojA4t
ntyPlCT2M+pkMEIfbitO6DFKotQJjKp1Hq2MopZUOj7QyukoYDSF3b2JvsEX4/zg
PG1aZfflfQKBgQCJXvrDYXAb44GHPqD3w05T+9mYKJWJXW+XesSAMtuc9E2n32rS
iYJiHPSm9XdtB0PTep3/11ynp//Vkf2aWKMFvwr3TdPRvqHnc7GekavGsIjnzFfv
Q/98YiRGscngjWcradFEmP0IWWJalbI/c/IFxur7aZU5jnBIA5dTYc/1rwKBgDpg
UAlrjMu3wmsqwy73CUFpKZWCMGc2BgxUN5wVJNE7Tavh3pCMriBvNP90QN/qR61w
TqOhPs2WDGiISP2qWGgyVr6rss8EuaAkD+5GQZFYrDkj+FS/i6f+Hpy+ucwuco0T
YYeyx9snCQkqRtBbug2vC5GFFtmJF9jP/z4fvkXpAoGBAJ1xXQmwnnck6no0vU8m
6EJPy9zI5g/Iqfce9vZR9DviOXdrVKcz69O38z7K/ECmP1gRTGCDtMxCiKkumsgD
xTt8VM5tobrpXDHmlEE3zxl+Y3aes/m+rLGJqPC6/OiERi5CeO0UBMF5RTNDp9WY
iVxiq79cAfUHhDEV0fFbp7WE
-----END PRIVATE KEY-----
"""

    public static let otherPublicPEM = """
-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAujajfCTkSfM9h/0e2Nki
pXNEcUETlpypadskttr+SedZMYnzYhgk+hpe7cysMOB5FRLvM5muT0K+b3gKiTub
CHl6QDQDtYlUkCxqnzHQMRGu0HqYHOfGWyjhRJpnSovVejzWN0+gp6HMGcBkIrQY
oSf6K+2a/vO6iNw1LVIHYbnt0d1UnqOZORNC8MHQWJF/noHs4oU0txoZk2DMq0BH
3Ky6ijmYDExlMdGJcZKuxo1c62soS2rl3JKFmiVFQaJkOXC7zzQlTWh6b+kB3bKp
TBI1wThF55kppwp2Mh8hrXlhG1tCKpFJn2GTlWs45kWiv+kejfFW64MGhbkIlyU/
8QIDAQAB
-----END PUBLIC KEY-----
"""

    public static let otherPrivatePEM = """
-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC6NqN8JORJ8z2H
/R7Y2SKlc0RxQROWnKlp2yS22v5J51kxifNiGCT6Gl7tzKww4HkVEu8zma5PQr5v
eAqJO5sIeXpANAO1iVSQLGqfMdAxEa7Qepgc58ZbKOFEmmdKi9V6PNY3T6CnocwZ
wGQitBihJ/or7Zr+87qI3DUtUgdhue3R3VSeo5k5E0LwwdBYkX+egezihTS3GhmT
YMyrQEfcrLqKOZgMTGUx0Ylxkq7GjVzrayhLauXckoWaJUVBomQ5cLvPNCVNaHpv
6QHdsqlMEjXBOEXnmSmnCnYyHyGteWEbW0IqkUmfYZOVazjmRaK/6R6N8VbrgwaF
uQiXJT/xAgMBAAECggEALWFucy08c2cziiYeM+Oq5V5TgjRFVVGlmdYduvBgw1r9
qix/41qV/Fub4eEc36Z8661bHRypVciix2CeVLZxgF22dNoYQ1AOCzq/2z8VCThR
fZ463uR/Oy0ZxRHJ9Wlho7Ia1IzzzpaIOohf/vMcA35OIhF8UgDM51ifHwXcJazy
sZY4N6kVcEYozgf7hD9HyJC1zvW3GeiNfYtMOdtceKRA2NT9UH+53UrD9YEh05ME
dsrn29xBYBHdiIbxv+7JokAhiHDH3ScEFQeCCaRq18/6HxmVek45Fif+Bygjyuxk
s3BSrqa6RcH4Nwa2rySeO4egyhxf1g50YSHK7YxvPwKBgQDyNi0HzsLACKlMpHKL
kfTPe2XBVluv0fXudwc1fpDCmkbBPHK6mkGn+mvmF0IjbijeKKgGN7xppAlJbgr6
uoRokA48QKscQF4Nou1RPNiKdHN6Z+YgJU1/73QYnGgcwWvRPhb/PXCjrDv7w0/u
o8p111rCUsI0nul8H9e1W4AQ5wKBgQDE0GJIwjuyVpOJ9UMR9i4XLd2EOxLIGc8C
pSYmjCZ4nu10kezBES5G0C3YwW7PFi5dup8vyPh+SIdZnEVW4TiU1HMAzUYmvrHx
ko7CQ+1e+hF7NZ0vFNLHANQc07wVxmxH29b4BGsgSbaSXPJyKkHV1LkWV8bD0e25
PXIFm/iVZwKBgAXo2nppSgkjbPYIwR60pfN2AEqST9RfXA/AabWda+zDlNxcHDR/
VQDDNGS9xohUxLx+43KbY4Z0USGwhKYPbPGcKizAKyyaSXEtu3qS8HmYU8T1ygCY
yGZJslxzXHrvITFOwYLivd/QcPo4jre02Vi8s2MwX7qm8e1sXXf4ToybAoGBAMBq
GiyX+FT6X3PY3KGK1LTEmnTUbCBFWyVy4EF/c30po2z73UND0MJadPgc5ICBZwMr
mMXW7VpI/kqVhRTTS8X1jhmSlqr6dG2AoyE516+rO7wBRpLpAMid/sHQH2oKe4Il
Y51GdJU0e9HMHRuQRJ0RQ4Kcfi6j5o3bjMX/HqCxAoGAb9LuXBS0Ip1Jj808x1mm
pqgDXOWm2JoRsHEGyB1ooNZF9YNYX3DQuCrXoMbbwPWZ6uO/RFAj7x2/bWNhWt5q
PiJLF3F4f2qOTmK5VTtr56Ti+5YGPh9ZG5E6Lv57qlXQXzOwXUcczraq83ayUVMw
TXbl81X9DQsrOGh6BtYRIvc=
-----END PRIVATE KEY-----
"""

    /// The merchant's own key pair, which signs the shop's Alipay requests: "other" plays it.
    public static var merchantPublicPEM: String { otherPublicPEM }
    public static var merchantPrivatePEM: String { otherPrivatePEM }

}

/// What a fake gateway throws when it is used wrongly (an order it never saw, a bad signature).
public struct FakeGatewayError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The providers' signing rules, written here from their published descriptions (not with the code under test).
public enum PaymentSigner {
    /// mockpay: `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
    public static func mockpay(_ body: [UInt8], timestamp: Int64, secret: String = "whsec_floral_test_secret") -> String {
        let mac = HMAC.sha256(key: Array(secret.utf8), message: Array("\(timestamp).".utf8) + body)
        return "t=\(timestamp),v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// WeChat Pay v2: the non-empty parameters but `sign`, sorted by name (ASCII), `k=v` joined by `&`,
    /// then `&key=API_KEY`; uppercase hex MD5, or HMAC-SHA256 keyed with the API key.
    public static func wechat(_ fields: [String: String], key: String = FakeGatewayKeys.wechatAPIKey, hmac: Bool = false) -> String {
        let text = fields.filter { $0.key != "sign" && !$0.value.isEmpty }
            .sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { "\($0.key)=\($0.value)" }.joined(separator: "&") + "&key=\(key)"
        let digest = hmac ? HMAC.sha256(key: Array(key.utf8), message: Array(text.utf8)) : Digest.md5(Array(text.utf8))
        return digest.map { String(format: "%02X", $0) }.joined()
    }

    /// `<xml><k><![CDATA[v]]></k>...</xml>`, the shape WeChat posts.
    public static func wechatXML(_ fields: [String: String]) -> [UInt8] {
        Array(("<xml>" + fields.sorted { $0.key < $1.key }.map { "<\($0.key)><![CDATA[\($0.value)]]></\($0.key)>" }.joined()
            + "</xml>").utf8)
    }

    /// Alipay RSA2: every non-empty field but `sign` and `sign_type`, sorted by name, `k=v` joined by `&`.
    public static func alipayContent(_ fields: [String: String]) -> String {
        fields.filter { $0.key != "sign" && $0.key != "sign_type" && !$0.value.isEmpty }
            .sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }

    /// What a merchant's request signature covers: every non-empty parameter but `sign` (here
    /// `sign_type` counts), sorted by name, `k=v` joined by `&`, values as they are.
    public static func alipayRequestContent(_ fields: [String: String]) -> String {
        fields.filter { $0.key != "sign" && !$0.value.isEmpty }
            .sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }

    /// SHA256withRSA by the openssl command line (the Crypto module only verifies), base64.
    public static func rsaSHA256(_ message: String, privateKeyPEM: String) throws -> String {
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("payment-key-\(UUID().uuidString).pem")
        try privateKeyPEM.write(to: keyFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let messageFile = FileManager.default.temporaryDirectory.appendingPathComponent("payment-msg-\(UUID().uuidString).txt")
        try Data(message.utf8).write(to: messageFile)
        defer { try? FileManager.default.removeItem(at: messageFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["dgst", "-sha256", "-sign", keyFile.path, messageFile.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let signature = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, signature.count == 256 else {
            throw FakeGatewayError("openssl dgst -sign failed (\(process.terminationStatus))")
        }
        return signature.base64EncodedString()
    }

    /// `application/x-www-form-urlencoded`, in the given order.
    public static func form(_ pairs: [(String, String)]) -> [UInt8] {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._*")
        allowed.insert(" ")
        return Array(pairs.map { name, value in
            let v = (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value).replacingOccurrences(of: " ", with: "+")
            return "\(name)=\(v)"
        }.joined(separator: "&").utf8)
    }
}

