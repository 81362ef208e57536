import ShopAPI

/// The Chinese summary and usage of each command, by its words (`"orders list"`): what `shop help`
/// and `--help` print under a `zh*` locale. The English stays beside each command.
enum ChineseHelp {
    static let summaries: [String: String] = [
        "serve": "执行迁移后提供 HTTP API，直到收到 SIGINT/SIGTERM",
        "migrate": "执行内置于 shop 的 SQL 迁移（--status 只列出状态）",
        "seed demo": "加载内置于 shop 的演示商品、作者和文章（可重复运行）",
        "db copy": "把 SQLite 商店复制到空的 PostgreSQL 数据库（--to postgresql://…）",
        "import catalog": "从 .csv 或 .jsonl 文件导入商品和 SKU（按编码新建或更新）",
        "import articles": "从 .jsonl 文件导入文章（按作者和标题新建或更新）",
        "orders list": "按时间倒序列出订单；--delivery-date D：某天的花艺师工作单",
        "orders show": "显示一个订单：商品、收花人、电话、地址、备注、时间",
        "orders ship": "为已付款订单登记发货（快递公司和运单号，或商店自送）",
        "orders cancel": "取消未发货的订单（已付款的全额退款）",
        "orders refund": "通过支付机构退还已付款订单的部分或全部金额",
        "orders deliver": "为已发货订单登记送达，可附送达照片",
        "pay simulate": "为订单签一条 mockpay 支付通知并发送到回调地址",
        "payments reconcile": "向支付机构查询已发起支付的未付订单，把已付的标记为已付款",
        "refunds list": "按时间倒序列出退款",
        "refunds retry": "立即把一笔退款（包括失败的）发给支付机构",
        "notifications list": "按时间倒序列出订单通知（发件箱）",
        "notifications retry": "重新发送一条失败的订单通知（重试次数从零计）",
        "coupons create": "新建优惠券（折扣或立减、限制、日期、分类）",
        "coupons list": "按时间倒序列出优惠券",
        "coupons disable": "停用优惠券（已使用的订单保留优惠）",
        "products list": "列出商品及其规格（在售和下架的都列出），含价格和库存",
        "products set": "修改一个规格的价格或库存，或让该规格上架/下架",
        "products export": "把所有商品和规格按导入的列写入 CSV 文件",
        "categories list": "按路径列出分类及其 id",
        "categories rename": "重命名分类（其下分类的路径随之改变）",
        "categories move": "把分类移到另一个分类下，或移到顶层",
        "categories delete": "删除空分类",
        "authors grant": "把该手机号的用户设为专栏作家",
        "authors revoke": "取消该手机号用户的专栏作家身份",
        "staff add": "新建员工账号（owner、manager、florist 或 service）并打印密码",
        "staff list": "列出员工账号和角色",
        "staff disable": "停用员工账号：其登录立即失效",
        "staff enable": "重新启用员工账号",
        "staff role": "修改员工的角色",
        "staff password": "为员工设置新密码（所有登录随之失效）",
        "users ban": "封禁买家：其令牌立即失效，登录回答 account_banned",
        "users unban": "解除买家的封禁",
        "sales": "按 app.timezone 的日期统计销售：订单、件数、实收和退款",
        "zones import": "用 JSON 文件替换全部配送区域（全部成功或不作更改）",
        "zones list": "列出配送区域及其运费和地区",
    ]

    static let usages: [String: String] = [
        "staff add": """
            用法：shop staff add 用户名 --role owner|manager|florist|service [--password-stdin] [--config PATH]

            用户名：3 到 32 位小写字母、数字、.、- 或 _，以字母开头。打印一个一次性密码（20 位）交给员工；
            加 --password-stdin 时改用标准输入的第一行作为密码（10 到 128 个字符）。员工在 /admin 登录。
            角色：owner（全部，包括员工账号）、manager（商品、订单、退款、售后、优惠券、内容管理、报表）、
            florist（订单和配送）、service（订单、取消和退款、售后、买家、内容管理）。
            """,
        "staff password": """
            用法：shop staff password 用户名 [--password-stdin] [--config PATH]

            打印新的一次性密码（加 --password-stdin 时用标准输入的第一行），该员工的所有登录随之失效。
            """,
        "serve": """
            用法：shop serve [--port N] [--env development|production] [--config PATH]

            先执行待执行的迁移（数据库不存在时新建），再在 server.host:server.port 上提供 API。
            收到 SIGINT 或 SIGTERM 时先排空：server.drain_seconds 内 GET /readyz 回答 503 "draining"，
            请求照常处理；然后停止接受连接，处理完进行中的请求后以 0 退出。生产环境下，密钥过短或仍为
            开发值、验证码会写入日志或文件、短信回调不是 https://、或没有 app.public_url 时拒绝启动。
            /openapi.json 和 /docs 内置于 shop，在任何目录启动都可用。
            """,
        "migrate": """
            用法：shop migrate [--status] [--config PATH]

            按顺序执行每个待执行的迁移，每个一个事务，并记录其 SHA-256。迁移是源码中的
            Migrations/NNNN_name.sql 文件，已内置于 shop；database.migrations_path 可改用某个目录中的
            文件。已执行后又被修改的迁移会报错。数据库不存在时新建。

              --status   列出每个迁移的状态：applied（已执行）、pending（待执行）或 MODIFIED（已修改），不做任何更改
            """,
        "seed demo": """
            用法：shop seed demo [--if-empty] [--config PATH]

              --if-empty   商店已有商品时什么也不做（`make run` 使用此项）

            导入 catalog.csv，新建 authors.jsonl 中的专栏作家，导入 articles.jsonl（源码 Examples/
            目录中的文件，已内置于 shop，因此在任何目录都能运行），让新商店有内容可看。只添加缺少的
            内容：商店已有销售、或运营改过价格、库存、作者或文章时再次运行，不会改动这些。
            数据库不存在时新建。
            """,
        "db copy": """
            用法：shop db copy --to postgresql://USER@HOST:PORT/DB [--config PATH]

            把所配置的 SQLite 数据库的每张表复制到 --to 指定的 PostgreSQL 数据库：id、密码和令牌哈希、
            计数器和商品目录版本原样保留；每个 id 序列从复制的最大 id 之后继续。目标库先执行迁移（新建
            的空库即可），且不能有数据；源库必须已执行全部迁移（先运行 `shop migrate`）。全部在一个事务中
            写入，提交前核对每张表的行数：失败的复制不会留下数据。请先停止商店。

            然后让商店使用新数据库：database.url（SHOP_DATABASE_URL）= --to 的 URL。

              --to URL   要填充的 PostgreSQL 数据库（libpq URL；PGPASSWORD 等 PG* 变量有效）
            """,
        "import catalog": """
            用法：shop import catalog FILE [--dry-run] [--skip-invalid] [--encoding utf-8|gb18030] [--allow-paths DIR]
                                       [--config PATH]

            列：product_code、sku_code、sku_name、title、subtitle、category（如 花束/玫瑰 的路径）、
            price 和 original_price（元，最多两位小数）、stock、description、cover_url、
            image_urls（用 | 分隔）、attributes（JSON 对象）、status（on_sale | off_sale）。
            一行是一个 SKU；product_code 相同的行组成一个商品（商品字段取自第一行）。sku_name 可为空
            （默认，用于只有一个规格的商品）。cover_url 和 image_urls 可以是 http(s) URL、/media/ 路径
            或本地图片文件（按内容为 PNG、JPEG、WebP 或 GIF；相对文件所在目录或绝对路径），会复制到
            media.path；符号链接或文件目录之外的文件（除非在 --allow-paths 指定的目录中）会被拒绝。
            每一行都会检查；有无效行的文件不写入任何内容。需要已有的商店数据库。

              --dry-run          检查并统计将新建和更新的内容，不写入
              --skip-invalid     导入有效行并报告无效行
              --encoding NAME    utf-8（默认）或 gb18030（也可写 gbk）：国内 Excel 保存的编码
              --allow-paths DIR  本地图片也可以来自 DIR（及其子目录）
            """,
        "import articles": """
            用法：shop import articles FILE [--dry-run] [--skip-invalid] [--config PATH]

            每行一个 JSON 对象：author_phone（专栏作家）、title、summary、cover_url、content（HTML 或
            Markdown，原样保存）、category（不存在则新建）、published_at（RFC 3339）。先检查每一行；
            有无效行的文件不写入任何内容。需要已有的商店数据库。

              --dry-run        检查并统计，不写入
              --skip-invalid   导入有效行并报告无效行
            """,
        "orders list": """
            用法：shop orders list [--status pending_payment|paid|shipped|delivered|completed|cancelled|refunding|refunded]
                                   [--limit N] [--delivery-date YYYY-MM-DD] [--format table|csv] [--lang zh|en]
                                   [--config PATH]

            时间为商店时间（北京时间，UTC+8），与订单号中的日期一致。

            --delivery-date D 列出 D 日（app.timezone）要配送的订单：按时段（上午、下午、晚上、不限）
            排列，每单有收花人、电话、地址、商品和贺卡。不加 --status 时列出要制作的订单（已付款、已发货、
            已送达、已完成），不含未付款和已取消的；--limit 默认为全部（最多 10000）。
            --format csv 以 CSV 输出（UTF-8 带 BOM，RFC 4180，一行表头，CRLF），可直接用 Excel 打开；
            电子表格会当作公式的单元格（以 =、+、-、@ 等开头）前加撇号。
            --lang zh 让表头和状态、时段等值用中文（上午、不限、已付款……），--lang en 用英文；不加时表格
            跟随 LANG，CSV 用英文（供脚本读取）。
            """,
        "orders show": """
            用法：shop orders show NUMBER [--config PATH]

            显示订单的商品（商品和 SKU 名称、数量、价格）、收花人、电话、完整地址、买家备注、状态和
            各个时间（北京时间，UTC+8）。
            """,
        "orders ship": """
            用法：shop orders ship NUMBER [--carrier NAME --tracking NO] [--config PATH]

            只有已付款的订单可以发货；发货后买家能看到快递公司和运单号。两者要么都给，要么都不给
            （商店自送）。以 cli:$USER 记入审计日志。
            """,
        "orders cancel": """
            用法：shop orders cancel NUMBER --reason TEXT [--format table|csv|json] [--config PATH]

            未付款的订单直接取消；已付款未发货的订单进入退款中，剩余的实付金额立即通过原支付机构退回
            （与买家自己取消相同）。库存和优惠券次数退回。以 cli:$USER 记入审计日志。
            """,
        "orders refund": """
            用法：shop orders refund NUMBER --amount YUAN --reason TEXT [--format table|csv|json] [--config PATH]

            适用于已付款、已发货、已送达或已完成的订单（状态不变）。一个订单的退款总额不超过实付金额。
            每笔退款有自己的退款号（R<订单号>-<支付号>-<序号>），每次重试都用它，并立即发给支付机构；
            见 shop refunds list。以 cli:$USER 记入审计日志。
            """,
        "orders deliver": """
            用法：shop orders deliver NUMBER [--photo-url /media/PATH] [--format table|csv|json] [--config PATH]

            只有已发货的订单可以登记送达。--photo-url 是商店自己提供的图片（用 POST /api/v1/media 上传）。
            以 cli:$USER 记入审计日志。
            """,
        "pay simulate": """
            用法：shop pay simulate NUMBER [--status succeeded|failed|refunded] [--url BASE_URL] [--config PATH]

            为订单最近一次 mockpay 支付（没有则发起一次）生成 mockpay 通知，用 payments.mockpay_secret
            签名后发到 \(PaymentWebhooks.notifyURL(base: "BASE_URL", provider: .mockpay))，如同支付机构所为。BASE_URL 默认为
            http://server.host:server.port。说明订单的结果（已付款、仍待付款、早已付款）并打印服务器的
            回答。`--status refunded` 确认订单的 mockpay 退款。
            """,
        "payments reconcile": """
            用法：shop payments reconcile [--since YYYY-MM-DD|UNIX_SECONDS] [--config PATH]

            对自给定日期（北京时间；默认最近 7 天）以来下单、已发起微信支付或支付宝支付但未付款的每个
            订单，向支付机构查询是否已付（orderquery / alipay.trade.query），已付的按支付通知的方式标记
            为已付款（核对金额，只计一次）。每单打印一行；有订单无法查询时以 1 退出。
            """,
        "notifications list": """
            用法：shop notifications list [--failed] [--limit N] [--format table|csv|json] [--config PATH]

            每行一条消息：pending（在 NEXT TRY 时发送）、sending（发送程序已领取）、sent（已发送）、
            failed（重试已用完，见 shop notifications retry）。--failed 只列出失败的。时间为北京时间（UTC+8）。
            """,
        "notifications retry": """
            用法：shop notifications retry ID [--format table|csv|json] [--config PATH]

            让这条通知立即重新待发，重试次数从零计；运行中的 shop serve 几秒内发出。已发送的通知
            不会再发（以 1 退出）。以 cli:$USER 记入审计日志。
            """,
        "refunds list": """
            用法：shop refunds list [--status pending|requested|refunded|failed] [--limit N] [--config PATH]

            pending：待申请（或在 LAST ERROR 之后重新申请）；requested：支付机构已受理，等待确认；
            refunded：已确认；failed：支付机构最终拒绝。时间为北京时间（UTC+8）。
            """,
        "refunds retry": """
            用法：shop refunds retry NUMBER [--config PATH]

            NUMBER 是退款号（R 开头，见 `shop refunds list`），不是订单号。立即申请（已申请的则确认）
            这笔退款，不等下次定时重试；退款号不变，支付机构最多退一次。之后打印这笔退款；
            不是已退款或已申请时以 1 退出。
            """,
        "coupons create": """
            用法：shop coupons create CODE (--percent-off N | --amount-off YUAN) [--min-spend YUAN]
                                       [--starts TIME] [--ends TIME] [--max-uses N] [--per-user N]
                                       [--category PATH] [--description TEXT] [--config PATH]

            CODE：3 到 32 个字母、数字、- 或 _；买家输入时不区分大小写。
            --percent-off N（1 到 99）减去 floor(适用金额 × N / 100) 分；--amount-off YUAN 减去该金额，
            不超过适用商品的总价。适用商品为全部商品，或 --category PATH（如 花束/玫瑰）分类及其子分类
            下的商品；--min-spend 与其金额比较。任何优惠都不会让订单低于 0.01 元。
            TIME：2026-12-01（北京时间；--ends 表示当天结束）、2026-12-01 18:00（北京时间）或 RFC 3339。
            --max-uses 统计所有买家的订单数，--per-user 统计每位买家的订单数；发货前取消的订单退还次数。
            """,
        "coupons list": """
            用法：shop coupons list [--limit N] [--config PATH]

            STATE 为 active（生效中）、scheduled（未开始）、expired（已过期）、used_up（已用完）或
            disabled（已停用）。USES 统计占用次数的订单（已取消的已退还）。时间为北京时间（UTC+8）。
            """,
        "coupons disable": """
            用法：shop coupons disable CODE [--config PATH]

            从现在起结算和购物车拒绝该券码（422 coupon_invalid）；已使用的订单保留优惠。重复停用无影响。
            """,
        "products list": """
            用法：shop products list [--q TEXT] [--status on_sale|off_sale] [--low-stock N] [--category PATH]
                                     [--format table|csv|json] [--config PATH]

            每个规格一行，最新的商品在前。--q 匹配标题、商品编码或规格编码的一部分；--low-stock N 只列出
            有规格剩余不超过 N 件的商品；--category PATH（花束/玫瑰）该分类及其下的分类。--format csv 输出
            CSV（UTF-8 带 BOM，CRLF），json 输出与 /api/v1/admin/products 相同的商品，供脚本使用。价格单位为元。
            """,
        "products set": """
            用法：shop products set SKU_CODE [--price YUAN] [--original-price YUAN] [--stock N]
                                    [--status on_sale|off_sale] [--config PATH]

            只修改给出的项（至少一项）：--price 和 --original-price 为最多两位小数的元金额（129 或 129.90），
            --stock 为现有库存（0 到 1000000），--status 为该规格自身的上架状态（同一商品的其他规格不变；整个商品的上下架用导入文件的 status 列
            或 PATCH /admin/products/{id}）。买家立即看到修改。修改以 cli:$USER 记入审计日志。最后显示修改后的规格。
            """,
        "products export": """
            用法：shop products export FILE [--config PATH]

            每个规格（在售或下架）写一行，列与 `shop import catalog` 读取的相同（product_code、sku_code、
            sku_name、title、subtitle、category、price、original_price、stock、description、cover_url、
            image_urls、attributes、status、delivery、sku_status）：可在表格软件中修改后再导入；原样导入不会改变任何内容。
            UTF-8 带 BOM，RFC 4180，CRLF。FILE 已存在时被覆盖。
            """,
        "categories list": """
            用法：shop categories list [--config PATH]

            路径就是 `shop import catalog` 和其他分类命令用来指定分类的名字。
            """,
        "categories rename": """
            用法：shop categories rename PATH NAME [--config PATH]

            PATH 按导入的写法指定分类（花束/郁金相）；NAME 为其新的最后一级名称（郁金香），最多 30 个字，
            不含 /。商品仍属于该分类。修改以 cli:$USER 记入审计日志。
            """,
        "categories move": """
            用法：shop categories move PATH PARENT_PATH [--config PATH]
                  shop categories move PATH --top [--config PATH]

            把分类（及其下的一切）移到 PARENT_PATH 下，或用 --top 移到顶层。不能移到它自己或其子分类下，
            也不能超过 5 层。修改以 cli:$USER 记入审计日志。
            """,
        "categories delete": """
            用法：shop categories delete PATH [--config PATH]

            分类里还有商品（在售或下架）、子分类或优惠券时拒绝删除：先移走或删除它们。删除以 cli:$USER
            记入审计日志。
            """,
        "authors grant": """
            用法：shop authors grant PHONE [--config PATH]

            把手机号为 PHONE 的用户设为专栏作家：可以发表文章（也可用 `shop import articles` 导入）。
            用户须已注册；已是作家时不变。记入审计日志（cli:$USER）。
            """,
        "authors revoke": """
            用法：shop authors revoke PHONE [--config PATH]

            取消手机号为 PHONE 的用户的专栏作家身份；其已发表的文章保留。记入审计日志（cli:$USER）。
            """,
        "users ban": """
            用法：shop users ban PHONE [--reason TEXT] [--config PATH]

            封禁手机号为 PHONE 的买家：其所有令牌立即失效（已登录的请求回答 401），登录回答
            403 account_banned，直到 `shop users unban`。再次封禁保留第一次的时间，采用新的原因
            （最多 200 个字）。记入审计日志（cli:$USER）。
            """,
        "users unban": """
            用法：shop users unban PHONE [--config PATH]

            解除封禁：买家可以重新登录（旧令牌仍然失效）。记入审计日志（cli:$USER）。
            """,
        "sales": """
            用法：shop sales [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--format table|csv|json] [--config PATH]

            从 --from 到 --to（含两端）每天一行（没有销售的日子显示 0），最后是合计。日期按
            app.timezone 计算。不加 --to 截至今天；不加 --from 从 --to 前 6 天开始；最多 366 天。
            订单、件数、实收统计当天付款的订单（按付款时间，无论之后如何）；退款统计当天支付机构确认
            的退款，无论其订单哪天付款。表格以元显示；--format csv 和 json 以分显示，字段名与 API 相同
            （date、orders、items、paid_cents、refunded_cents），供脚本读取。
            """,
        "zones import": """
            用法：shop zones import FILE [--config PATH]

            FILE 为 JSON：{"zones": [...]}（即 GET /admin/delivery/zones 的回答）或数组本身。每个区域：
            {"name": "市区", "region_codes": ["440303", "440304"], "fee_cents": 800,
            "free_over_cents": 19900, "same_day": true}。region_codes 为市或区县的代码（GB/T 2260，
            与 GET /regions 一致），市包含其下的区县。同一代码不能列两次，也不能位于另一个已列代码之内
            （一个市在一个区域、它的某个区县在另一个区域）。fee_cents 为 0 到 100000；free_over_cents
            （可省略）为 0 到 10000000，与扣除优惠券后的商品金额比较；same_day 为 false 时该区域不能当日
            送达。最多 100 个区域，每个最多 500 个代码。文件替换全部区域；空列表删除所有区域（所有地址
            免费配送）。有任何问题时逐条列出（第 N 个区域：…），不作任何更改，退出码 1。记入审计日志
            （cli:$USER）。
            """,
        "zones list": """
            用法：shop zones list [--format table|csv|json] [--config PATH]

            运费以元显示。没有区域时所有地址免费配送。用 `shop zones import` 替换。
            """,
    ]
}
