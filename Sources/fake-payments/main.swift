import Foundation
import FakePaymentGateways
import HTTP
#if canImport(Glibc)
import Glibc
#endif

// `fake-payments`: WeChat Pay and Alipay on loopback for a shop run by hand (development only; a
// binary of its own, never part of `shop`). See `fake-payments --help` and the README.

let usage = """
    Usage: fake-payments [--wechat-port 9301] [--alipay-port 9302] [--control-port 9300]
                         [--shop http://127.0.0.1:8080] [--env-file .build/fake-payments.env] [--hold-refunds]

    Serves fake WeChat Pay (unifiedorder APP/NATIVE/MWEB and the H5 page, orderquery, refund,
    refundquery) and fake Alipay (alipay.trade.query / refund, the app's order string, and the
    cashier page of a wap/page pay URL) on 127.0.0.1 with fixed test keys,
    writes the SHOP_PAYMENTS_* lines that point a shop at them into --env-file, and takes an
    operator's orders on the control port (curl -s 127.0.0.1:9300/ lists them).
    --hold-refunds: WeChat refunds stay PROCESSING until confirmed on the control port.
    """

var options = ["wechat-port": "9301", "alipay-port": "9302", "control-port": "9300", "shop": "http://127.0.0.1:8080",
               "env-file": ".build/fake-payments.env"]
var holdRefunds = false
var arguments = Array(CommandLine.arguments.dropFirst())
while let argument = arguments.first {
    arguments.removeFirst()
    if argument == "--help" || argument == "-h" {
        print(usage)
        exit(0)
    } else if argument == "--hold-refunds" {
        holdRefunds = true
    } else if argument.hasPrefix("--"), options[String(argument.dropFirst(2))] != nil, let value = arguments.first {
        options[String(argument.dropFirst(2))] = value
        arguments.removeFirst()
    } else {
        FileHandle.standardError.write(Data("fake-payments: unknown argument \(argument)\n\(usage)\n".utf8))
        exit(2)
    }
}

func port(_ name: String, in options: [String: String]) -> UInt16 {
    guard let text = options[name], let value = UInt16(text), value > 0 else {
        FileHandle.standardError.write(Data("fake-payments: --\(name) must be a port number\n".utf8))
        exit(2)
    }
    return value
}

do {
    let wechat = try FakeWechatPayGateway(port: port("wechat-port", in: options))
    let alipay = try FakeAlipayGateway(port: port("alipay-port", in: options))
    wechat.holdRefunds(holdRefunds)
    let control = ControlPanel(wechat: wechat, alipay: alipay)
    let server = Server(options: ServerOptions(host: "127.0.0.1", port: port("control-port", in: options), threads: 2),
                        responder: { request, _ in control.handle(request) })
    try server.start()

    let shop = options["shop"] ?? ""
    let env = ShopEnvironmentLines.make(wechat: wechat, alipay: alipay, shopURL: shop)
    let envFile = options["env-file"] ?? ".build/fake-payments.env"
    try FileManager.default.createDirectory(at: URL(fileURLWithPath: envFile).deletingLastPathComponent(),
                                            withIntermediateDirectories: true)
    try env.write(toFile: envFile, atomically: true, encoding: .utf8)
    let controlURL = "http://127.0.0.1:\(server.port)"
    FileHandle.standardOutput.write(Data("""
        fake WeChat Pay  \(wechat.baseURL)
        fake Alipay      \(alipay.gatewayURL)
        control          \(controlURL)   (curl -s \(controlURL)/ for the commands)

        The shop's settings are in \(envFile). Start the shop with them (another terminal):
          set -a; . \(envFile); set +a; make run

        """.utf8))

    let stop = DispatchSemaphore(value: 0)
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { stop.signal() }
        source.resume()
        return source
    }
    stop.wait()
    sources.forEach { $0.cancel() }
    server.stop(grace: 1)
    wechat.stop()
    alipay.stop()
    print("fake-payments stopped")
} catch {
    FileHandle.standardError.write(Data("fake-payments: \(error)\n".utf8))
    exit(1)
}
