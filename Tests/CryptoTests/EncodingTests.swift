import Testing
import Crypto

@Suite("Hex and Base64")
struct EncodingTests {
    @Test func hexEncodesLowercaseTwoCharactersPerByte() {
        #expect(Hex.encode([0x00, 0x0f, 0xab, 0xff]) == "000fabff")
        #expect(Hex.encode([UInt8]()) == "")
    }

    @Test func hexDecodesEitherCase() {
        #expect(Hex.decode("000fABff") == [0x00, 0x0f, 0xab, 0xff])
        #expect(Hex.decode("") == [])
    }

    @Test func hexRejectsOddLengthAndNonHexCharacters() {
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("0g") == nil)
        #expect(Hex.decode("é0") == nil)
    }

    @Test func base64RoundTripsRFC4648Vectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func base64RejectsInvalidText() {
        #expect(Base64.decode("Zm9v!") == nil)
        #expect(Base64.decode("Zg") == nil)
    }
}
