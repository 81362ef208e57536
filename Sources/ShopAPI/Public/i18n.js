// Labels in Chinese and English; the language follows navigator.language.
const strings = {
  zh: {
    brand: 'Floral 花店',
    tagline: '把四季的花，送到你身边',
    hero: '每一束花，都有它想说的话',
    tab_shop: '商城', tab_column: '专栏', tab_cart: '购物车', tab_orders: '订单', tab_addresses: '地址', tab_account: '账户',
    loading: '加载中…', load_more: '加载更多', no_more: '没有更多了', retry: '重试', back: '返回',
    network_error: '网络好像断了，请稍后再试',
    save: '保存', cancel: '取消', delete: '删除', edit: '编辑', confirm_delete: '确认删除？', submit: '提交',
    // shop
    search_placeholder: '搜索花束、绿植、礼盒…', search: '搜索', hot_searches: '热门搜索',
    all_categories: '全部', sort: '排序',
    sort_relevance: '综合', sort_newest: '最新', sort_price_asc: '价格从低到高', sort_price_desc: '价格从高到低', sort_sales: '销量',
    price_filter: '价格', price_min: '最低价 ¥', price_max: '最高价 ¥', apply: '确定', clear: '清除',
    price_ranges: '价格区间', price_under: '¥{max}以下', price_between: '¥{min}–{max}', price_from: '¥{min}以上',
    price_invalid: '请输入正确的价格，例如 99 或 99.90', price_range_invalid: '最低价不能高于最高价，请重新填写价格区间',
    results_count: '共 {n} 件商品', results_for: '“{q}”的搜索结果 {n} 件', no_products: '没有找到相关商品，换个关键词试试',
    no_products_filtered: '没有符合条件的商品，换个分类或价格区间试试',
    sold: '已售 {n}', sold_out: '售罄', from_price: '起',
    choose_sku: '选择规格', quantity: '数量', stock_left: '库存 {n}', add_to_cart: '加入购物车', added_to_cart: '已加入购物车',
    favorite: '收藏', favorited: '已收藏', favorite_added: '已加入收藏', favorite_removed: '已取消收藏', favorites_title: '我的收藏',
    favorite_products: '收藏的商品', favorite_articles: '收藏的文章', no_favorites: '还没有收藏',
    share: '分享', share_copied: '分享链接已复制，粘贴到微信即可', share_copy_manually: '复制这个链接分享：',
    go_to_cart: '去购物车', details: '商品详情', attributes: '商品参数', please_choose_sku: '请先选择规格',
    sign_in_first: '请先登录', product_missing: '商品不存在或已下架',
    article_missing: '文章不存在或已删除', author_missing: '这位作者不存在',
    // account
    sign_in: '登录', register: '注册', reset_password: '找回密码', sign_out: '退出登录',
    phone: '手机号', phone_placeholder: '11 位手机号', code: '验证码', code_placeholder: '6 位验证码',
    get_code: '获取验证码', resend_in: '{n}秒后重新发送', code_sent: '验证码已发送',
    password: '密码', password_placeholder: '8–64 位密码', new_password: '新密码', nickname: '昵称（选填）',
    signed_in: '登录成功', registered: '注册成功，欢迎来到 Floral', signed_out: '已退出登录',
    reset_done: '密码已重置，请用新密码登录',
    hello: '你好，{name}', author_badge: '专栏作家', joined: '{date} 加入',
    profile: '个人资料', nickname_label: '昵称', signature_label: '签名', gender_label: '性别',
    gender_male: '男', gender_female: '女', gender_unknown: '保密', saved: '已保存',
    my_following: '我的关注', none_following: '还没有关注任何作者',
    welcome_title: '欢迎来到 Floral', welcome_text: '登录后可以把喜欢的花加入购物车、下单和关注专栏作家。',
    // cart
    cart_title: '购物车', cart_empty: '购物车还是空的', go_shopping: '去逛逛', select_all: '全选',
    coupon: '优惠码', coupon_placeholder: '输入优惠码', coupon_apply: '使用', coupon_remove: '不用了', coupon_discount: '优惠',
    total: '合计', checkout: '去结算', items_count: '{n} 件', unavailable: '已失效', low_stock: '仅剩 {n} 件',
    remove: '删除', sign_in_to_see: '登录后查看', cart_cleared: '已清空', clear_cart: '清空',
    // checkout
    delivery_title: '送达时间', delivery_date: '送达日期', delivery_slot: '时段', slot_any: '全天均可',
    slot_morning: '上午', slot_afternoon: '下午', slot_evening: '晚上', no_delivery_day: '近期没有可配送的日子',
    delivery_fee: '配送费', delivery_free: '免配送费', free_delivery_hint: '再买 {amount} 免配送费', delivery_zone: '配送区域：{zone}',
    card_title: '贺卡', card_message: '贺卡留言（选填）', card_message_placeholder: '例如：生日快乐！', card_signature: '署名（选填）',
    delivery_on: '送达：{d} {s}', card_line: '贺卡：“{m}”{s}', tracking_link: '收花人查看配送进度的页面（可转发给收花人）',
    checkout_title: '确认订单', ship_to: '收货地址', add_address: '新增地址', note: '备注（选填）',
    note_placeholder: '例如：请提前电话联系', place_order: '提交订单', order_placed: '下单成功',
    nothing_selected: '请先在购物车里勾选商品', need_address: '请先添加收货地址',
    // addresses
    addresses_title: '收货地址', default: '默认', set_default: '设为默认', no_addresses: '还没有收货地址',
    recipient: '收货人', province: '省份', city: '城市', district: '区县', detail: '详细地址',
    postal_code: '邮编（选填）', make_default: '设为默认地址', address_saved: '地址已保存', address_deleted: '地址已删除',
    edit_address: '编辑地址',
    region_choose: '请选择', region_type_instead: '找不到所在地区？手动填写', region_pick_instead: '从列表选择省市区',
    region_pick_leaf: '请把所在地区选到区县',
    // orders
    orders_title: '我的订单', status_all: '全部', status_pending_payment: '待付款', status_paid: '已付款',
    status_shipped: '已发货', status_delivered: '已送达', status_completed: '已完成', status_cancelled: '已取消',
    status_refunding: '退款中', status_refunded: '已退款',
    no_orders: '还没有订单', order_number: '订单号 {n}', created_at: '下单时间', pay_before: '请在 {t} 前付款',
    cancel_order: '取消订单', order_cancelled: '订单已取消', pay_mockpay: '用 mockpay 支付', paid_ok: '支付成功',
    pay_failed: '支付未成功，订单状态：{s}', confirm_receipt: '确认收货', received_ok: '已确认收货',
    shipment: '物流：{c} {n}', dev_hint: '开发模式：模拟支付',
    tab_orders_all: '全部', tab_orders_pending_payment: '待付款', tab_orders_paid: '待发货', tab_orders_shipped: '配送中',
    tab_orders_delivered: '已送达', tab_orders_completed: '已完成', tab_orders_refund: '退款·售后', tab_orders_cancelled: '已取消',
    keep_order: '再想想', cancel_confirm_title: '取消这个订单？', cancel_confirm_text: '取消后订单不能恢复，商品会放回库存。',
    cancel_confirm_yes: '确认取消', apply_refund: '申请退款', refund_confirm_title: '申请退款？',
    refund_confirm_text: '订单还没有发货，取消后 {m} 将原路退回。', refund_confirm_yes: '确认退款', refund_requested: '已申请退款，款项将原路退回',
    refund_line: '退款：{m} · {s}', refund_status_pending: '退款中', refund_status_requested: '退款中', refund_status_refunded: '已退款', refund_status_failed: '退款遇到问题，客服会处理',
    refunded_line: '已退款 {m}',
    apply_after_sale: '申请售后', after_sale_title: '申请售后', after_sale_kind: '售后类型', after_sale_kind_refund: '退款',
    after_sale_kind_redeliver: '补送', after_sale_reason: '问题描述', after_sale_reason_placeholder: '例如：花送到时已经蔫了（200 字以内）',
    after_sale_photos: '照片（最多 6 张）', after_sale_add_photo: '添加照片', after_sale_uploading: '上传中…', after_sale_remove_photo: '删除照片',
    after_sale_amount: '退款金额 ¥', after_sale_amount_hint: '最多可退 {m}', after_sale_submit: '提交申请', after_sale_sent: '售后申请已提交',
    after_sale_reason_required: '请描述遇到的问题（1–200 字）', after_sale_amount_invalid: '退款金额应在 ¥0.01 到 {m} 之间',
    after_sale_too_many_photos: '最多 6 张照片', after_sale_photo_type: '请选择 JPEG、PNG 或 WebP 图片',
    after_sale_line: '售后（{k}）：{s}', after_sale_decision: '处理意见：{n}', after_sale_amount_line: '申请退款 {m}',
    after_sale_status_requested: '处理中', after_sale_status_approved: '已同意', after_sale_status_rejected: '未通过',
    after_sale_status_refunded: '已退款', after_sale_status_redelivered: '已补送',
    service_contact: '联系客服：{c}',
    gallery_previous: '上一张', gallery_next: '下一张', gallery_picture: '第 {n} 张',
    day_today: '今天', day_tomorrow: '明天', day_more: '其他日期', day_pick: '选择日期',
    pay_alipay: '支付宝付款', pay_wechatpay: '微信支付', pay_scan: '请用微信扫一扫付款', pay_qr_alt: '微信支付二维码', pay_checking: '正在确认付款结果…', pay_not_yet: '还没有收到付款，稍后刷新看看',
    // column
    column_authors: '作者', column_feed: '关注动态', column_top: '本周热门', column_articles: '文章',
    followers: '粉丝 {n}', articles_n: '文章 {n}', following_n: '关注 {n}',
    follow: '关注', unfollow: '已关注', followed: '关注成功', unfollowed: '已取消关注',
    feed_empty: '还没有关注的作者，去看看推荐作者吧', feed_sign_in: '登录后查看你关注的作者的新文章',
    no_articles: '还没有文章', views: '{n} 阅读', likes: '{n} 赞', comments_n: '{n} 评论',
    like: '赞', liked: '已赞', comments: '评论', no_comments: '还没有评论，来说两句吧',
    comment_placeholder: '写下你的评论（500 字以内）', post_comment: '发表', comment_posted: '评论已发表',
    reply_to: '回复 @{name}', reply: '回复', sort_followers: '粉丝最多', all_articles: '全部', rank: '第 {n} 名', author_page: '作者主页',
  },
  en: {
    brand: 'Floral',
    tagline: 'Flowers of every season, to your door',
    hero: 'Every bunch has something to say',
    tab_shop: 'Shop', tab_column: 'Column', tab_cart: 'Cart', tab_orders: 'Orders', tab_addresses: 'Addresses', tab_account: 'Account',
    loading: 'Loading…', load_more: 'Load more', no_more: 'That is all', retry: 'Retry', back: 'Back',
    network_error: 'The network seems down; please try again',
    save: 'Save', cancel: 'Cancel', delete: 'Delete', edit: 'Edit', confirm_delete: 'Really delete?', submit: 'Submit',
    search_placeholder: 'Search bouquets, plants, gifts…', search: 'Search', hot_searches: 'Trending',
    all_categories: 'All', sort: 'Sort',
    sort_relevance: 'Best match', sort_newest: 'Newest', sort_price_asc: 'Price: low to high', sort_price_desc: 'Price: high to low', sort_sales: 'Best selling',
    price_filter: 'Price', price_min: 'Min ¥', price_max: 'Max ¥', apply: 'Apply', clear: 'Clear',
    price_ranges: 'Price ranges', price_under: 'Under ¥{max}', price_between: '¥{min}–{max}', price_from: '¥{min} and up',
    price_invalid: 'Enter a price such as 99 or 99.90', price_range_invalid: 'The lowest price cannot be above the highest; adjust the range',
    results_count: '{n} products', results_for: '{n} results for “{q}”', no_products: 'Nothing found; try another word',
    no_products_filtered: 'Nothing matches; try another category or price range',
    sold: '{n} sold', sold_out: 'Sold out', from_price: 'from',
    choose_sku: 'Choose an option', quantity: 'Quantity', stock_left: '{n} in stock', add_to_cart: 'Add to cart', added_to_cart: 'Added to your cart',
    favorite: 'Save', favorited: 'Saved', favorite_added: 'Saved to your favourites', favorite_removed: 'Removed from your favourites', favorites_title: 'My favourites',
    favorite_products: 'Saved products', favorite_articles: 'Saved articles', no_favorites: 'Nothing saved yet',
    share: 'Share', share_copied: 'Share link copied', share_copy_manually: 'Copy this link to share:',
    go_to_cart: 'Go to cart', details: 'Details', attributes: 'Specifications', please_choose_sku: 'Choose an option first',
    sign_in_first: 'Please sign in first', product_missing: 'This product is not available',
    article_missing: 'This article does not exist or was removed', author_missing: 'There is no such author',
    sign_in: 'Sign in', register: 'Register', reset_password: 'Reset password', sign_out: 'Sign out',
    phone: 'Phone', phone_placeholder: '11-digit mobile number', code: 'Code', code_placeholder: '6-digit code',
    get_code: 'Get code', resend_in: 'Resend in {n}s', code_sent: 'Code sent',
    password: 'Password', password_placeholder: '8–64 characters', new_password: 'New password', nickname: 'Nickname (optional)',
    signed_in: 'Signed in', registered: 'Welcome to Floral', signed_out: 'Signed out',
    reset_done: 'Password changed; sign in with the new one',
    hello: 'Hello, {name}', author_badge: 'Column author', joined: 'Joined {date}',
    profile: 'Profile', nickname_label: 'Nickname', signature_label: 'Signature', gender_label: 'Gender',
    gender_male: 'Male', gender_female: 'Female', gender_unknown: 'Not saying', saved: 'Saved',
    my_following: 'Following', none_following: 'You follow no author yet',
    welcome_title: 'Welcome to Floral', welcome_text: 'Sign in to fill your cart, order and follow column authors.',
    cart_title: 'Cart', cart_empty: 'Your cart is empty', go_shopping: 'Start shopping', select_all: 'All',
    coupon: 'Coupon', coupon_placeholder: 'Coupon code', coupon_apply: 'Apply', coupon_remove: 'Remove', coupon_discount: 'Discount',
    total: 'Total', checkout: 'Check out', items_count: '{n} items', unavailable: 'Unavailable', low_stock: 'Only {n} left',
    remove: 'Remove', sign_in_to_see: 'Sign in to see it', cart_cleared: 'Cart emptied', clear_cart: 'Empty',
    delivery_title: 'Delivery', delivery_date: 'Day', delivery_slot: 'Time', slot_any: 'Any time',
    slot_morning: 'Morning', slot_afternoon: 'Afternoon', slot_evening: 'Evening', no_delivery_day: 'No delivery day is open soon',
    delivery_fee: 'Delivery', delivery_free: 'Free delivery', free_delivery_hint: '{amount} more for free delivery', delivery_zone: 'Delivery zone: {zone}',
    card_title: 'Greeting card', card_message: 'Card message (optional)', card_message_placeholder: 'e.g. Happy birthday!', card_signature: 'Signed (optional)',
    delivery_on: 'Delivery: {d} {s}', card_line: 'Card: “{m}”{s}', tracking_link: 'The recipient’s delivery page (send them the link)',
    checkout_title: 'Confirm order', ship_to: 'Ship to', add_address: 'Add address', note: 'Note (optional)',
    note_placeholder: 'e.g. please call before delivering', place_order: 'Place order', order_placed: 'Order placed',
    nothing_selected: 'Select items in your cart first', need_address: 'Add a delivery address first',
    addresses_title: 'Addresses', default: 'Default', set_default: 'Make default', no_addresses: 'No address yet',
    recipient: 'Recipient', province: 'Province', city: 'City', district: 'District', detail: 'Street address',
    postal_code: 'Postal code (optional)', make_default: 'Use as default address', address_saved: 'Address saved', address_deleted: 'Address deleted',
    edit_address: 'Edit address',
    region_choose: 'Choose…', region_type_instead: 'Can\'t find your area? Type it in', region_pick_instead: 'Choose province, city and district from a list',
    region_pick_leaf: 'Choose the area down to the district',
    orders_title: 'My orders', status_all: 'All', status_pending_payment: 'Awaiting payment', status_paid: 'Paid',
    status_shipped: 'Shipped', status_delivered: 'Delivered', status_completed: 'Completed', status_cancelled: 'Cancelled',
    status_refunding: 'Refunding', status_refunded: 'Refunded',
    no_orders: 'No orders yet', order_number: 'Order {n}', created_at: 'Placed', pay_before: 'Pay before {t}',
    cancel_order: 'Cancel order', order_cancelled: 'Order cancelled', pay_mockpay: 'Pay with mockpay', paid_ok: 'Payment received',
    pay_failed: 'Payment did not go through; the order is {s}', confirm_receipt: 'Confirm receipt', received_ok: 'Receipt confirmed',
    shipment: 'Shipped by {c}, {n}', dev_hint: 'Development mode: simulated payment',
    tab_orders_all: 'All', tab_orders_pending_payment: 'To pay', tab_orders_paid: 'To ship', tab_orders_shipped: 'On the way',
    tab_orders_delivered: 'Delivered', tab_orders_completed: 'Completed', tab_orders_refund: 'Refunds & after-sale', tab_orders_cancelled: 'Cancelled',
    keep_order: 'Keep it', cancel_confirm_title: 'Cancel this order?', cancel_confirm_text: 'A cancelled order cannot be restored; its items go back into stock.',
    cancel_confirm_yes: 'Cancel order', apply_refund: 'Request a refund', refund_confirm_title: 'Request a refund?',
    refund_confirm_text: 'The order has not shipped yet: cancel it and {m} goes back the way you paid.', refund_confirm_yes: 'Refund', refund_requested: 'Refund requested; the money goes back the way you paid',
    refund_line: 'Refund: {m} · {s}', refund_status_pending: 'in progress', refund_status_requested: 'in progress', refund_status_refunded: 'refunded', refund_status_failed: 'held up; customer service will handle it',
    refunded_line: 'Refunded {m}',
    apply_after_sale: 'After-sale request', after_sale_title: 'After-sale request', after_sale_kind: 'What would help', after_sale_kind_refund: 'Refund',
    after_sale_kind_redeliver: 'Redeliver', after_sale_reason: 'What went wrong', after_sale_reason_placeholder: 'e.g. the flowers arrived wilted (up to 200 characters)',
    after_sale_photos: 'Photos (up to 6)', after_sale_add_photo: 'Add photos', after_sale_uploading: 'Uploading…', after_sale_remove_photo: 'Remove photo',
    after_sale_amount: 'Refund amount ¥', after_sale_amount_hint: 'Up to {m}', after_sale_submit: 'Send request', after_sale_sent: 'After-sale request sent',
    after_sale_reason_required: 'Describe the problem (1–200 characters)', after_sale_amount_invalid: 'The refund must be ¥0.01 to {m}',
    after_sale_too_many_photos: 'Up to 6 photos', after_sale_photo_type: 'Choose a JPEG, PNG or WebP picture',
    after_sale_line: 'After-sale ({k}): {s}', after_sale_decision: 'Reply: {n}', after_sale_amount_line: 'Refund asked {m}',
    after_sale_status_requested: 'in progress', after_sale_status_approved: 'approved', after_sale_status_rejected: 'declined',
    after_sale_status_refunded: 'refunded', after_sale_status_redelivered: 'redelivered',
    service_contact: 'Customer service: {c}',
    gallery_previous: 'Previous picture', gallery_next: 'Next picture', gallery_picture: 'Picture {n}',
    day_today: 'Today', day_tomorrow: 'Tomorrow', day_more: 'Other days', day_pick: 'Choose a day',
    pay_alipay: 'Pay with Alipay', pay_wechatpay: 'Pay with WeChat Pay', pay_scan: 'Scan with WeChat to pay', pay_qr_alt: 'WeChat Pay QR code', pay_checking: 'Checking the payment…', pay_not_yet: 'No payment has arrived yet; look again shortly',
    column_authors: 'Authors', column_feed: 'Following', column_top: 'Top 10', column_articles: 'Articles',
    followers: '{n} followers', articles_n: '{n} articles', following_n: '{n} following',
    follow: 'Follow', unfollow: 'Following', followed: 'Followed', unfollowed: 'Unfollowed',
    feed_empty: 'You follow no author yet; have a look at the authors', feed_sign_in: 'Sign in to read new articles from the authors you follow',
    no_articles: 'No articles yet', views: '{n} views', likes: '{n} likes', comments_n: '{n} comments',
    like: 'Like', liked: 'Liked', comments: 'Comments', no_comments: 'No comments yet; be the first',
    comment_placeholder: 'Write a comment (up to 500 characters)', post_comment: 'Post', comment_posted: 'Comment posted',
    reply_to: 'Reply to @{name}', reply: 'Reply', sort_followers: 'Most followed', all_articles: 'All', rank: 'No. {n}', author_page: 'Author',
  },
};

export const lang = ((navigator.languages && navigator.languages[0]) || navigator.language || 'en')
  .toLowerCase().startsWith('zh') ? 'zh' : 'en';
export const locale = lang === 'zh' ? 'zh-CN' : 'en-US';

/** The label for `key` in the page's language, with `{name}` placeholders filled from `params`. */
export function t(key, params) {
  const text = strings[lang][key] ?? strings.en[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Cents as "¥159.00", computed with integers only. */
export function money(cents) {
  const value = Math.trunc(Number(cents) || 0);
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  return `${sign}¥${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "129" or "129.9" or "129.90" yuan as integer cents; null when it is not a price. */
export function yuanToCents(text) {
  const match = /^\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text || '');
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] || '').padEnd(2, '0'));
}

export function dateTime(value) {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(locale, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
}

const WEEKDAYS = { zh: ['周日', '周一', '周二', '周三', '周四', '周五', '周六'], en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A delivery day (`YYYY-MM-DD`, a day in the shop's time zone) as people say it: 今天 / 明天 /
 * 周三 12月3日 (Today / Tomorrow / Wed 3 Dec), `today` being that zone's date. `{label, date}`:
 * the words, and the plain date for 今天 and 明天 (empty otherwise).
 */
export function dayLabel(day, today) {
  const [y, m, d] = String(day).split('-').map(Number);
  const utc = Date.UTC(y, m - 1, d);
  const date = lang === 'zh' ? `${m}月${d}日` : `${d} ${MONTHS[m - 1]}`;
  if (today) {
    const [ty, tm, td] = today.split('-').map(Number);
    const ahead = Math.round((utc - Date.UTC(ty, tm - 1, td)) / 86400000);
    if (ahead === 0) return { label: t('day_today'), date };
    if (ahead === 1) return { label: t('day_tomorrow'), date };
  }
  return { label: `${WEEKDAYS[lang][new Date(utc).getUTCDay()]} ${date}`, date: '' };
}

export function dateOnly(value) {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' });
}
