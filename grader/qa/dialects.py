"""Dialects and code-switched words in the standard words the rubrics are written in.

Learners write Chinese as they speak it (Cantonese, Wu, Minnan, Sichuanese, Shaanxi, northern colloquial,
Taiwan's terms) and English with words of their first language (Spanish, Hindi, Tagalog, Nigerian Pidgin,
Jamaican Patois, Scots, Trinidadian, Yorkshire), and pinyin beside the characters they are not sure of.
Each table below rewrites one of these into Mandarin or English, and applies only to an answer that
carries one of its marks, so that a word another reading shares is left alone where the dialect is
absent.
:func:`standard_words` is one step of :func:`grader.qa.normal_form.canonical`.
"""

import re

# Shared by several southern tables: 个 as the particle 的 ("离得远个词"; not a measure word after a number or 每, 这...),
# and 只 as the measure word 个 after 每, 下, 一 ("每只 token", "下一只 token").
_GE_AS_DE = r"(?<![一二三四五六七八九十两几每这那哪各某多单整半\d])个(?=\s*[\u3400-\u9fffa-z(（,.;:!?。，；：！？]|\s*$)"
_ZHI_AS_GE = r"(?<=[每下一这那几])只(?=\s*[a-z\u3400-\u9fff])"

# Written Cantonese (Hong Kong and Guangdong learners: "之前啲 token 嘅 K 同 V 唔会变") in Mandarin words, so
# that one Chinese rubric reads both. Words first, then the characters they hold.
# "就系", "即系", "系为了" (是 in Cantonese) are no Mandarin word (a 系统 is).
_CANTONESE_MARK = re.compile(r"[唔嘅咗冇睇啲嗰𠮶喺佢攞嚟噉咁揾谂畀慳悭]|(?:净|就|都|即)系(?![统数列谱])|系(?=为了|咪)")
# Cantonese alone: rewritten wherever they appear.
_CANTONESE = [(re.compile(pattern), mandarin) for pattern, mandarin in (
    (r"唔使|唔洗|唔需要", "不用"), (r"落嚟", "下来"), (r"嗰阵", "那时"), (r"缩细", "缩小"), (r"佢哋", "它们"),
    (r"乜嘢", "什么"), (r"噉|咁样|咁", "这样"), (r"细(?=\s*\d|\s*[一二三四五六七八九十几两]+\s*倍|咗|啲|\s*[a-z(（][\w/()（）·×*]{0,12}\s*倍)", "小"),
    (r"冇得", "没有"), (r"冇[晒哂]", "没了"), (r"冇", "没有"), (r"唔", "不"), (r"嘅", "的"), (r"咗", "了"), (r"睇", "看"), (r"啲", "些"), (r"嗰|𠮶", "那"), (r"畀|俾", "给"), (r"慳|悭", "省"),
    (r"喺", "在"), (r"佢", "它"), (r"攞", "拿"), (r"嚟", "来"), (r"揾", "找"),
)]
# Also Mandarin, or part of a Mandarin word (关系, 系统, 变成个, 输入面板): rewritten only in a Cantonese answer.
_CANTONESE_IN_CONTEXT = [(re.compile(pattern), mandarin) for pattern, mandarin in (
    (r"点解", "为什么"), (r"而家", "现在"), (r"入面", "里面"), (r"成个", "整个"), (r"望返", "看回"),
    (r"(?<=[加放写塞])落(?=[^。；;]{0,20}度)", "到"), (r"仲(?=有|要|会|是|系|可以|未)", "还"),
    (r"净系|净是", "只是"), (r"净(?=[要得有用看算])", "只"), (r"唔使", "不用"), (r"谂", "想"), (r"(?<=重新)计(?![算划])", "算"),
    (r"(?<![关体派联维星母直谱标考语院科河阳机])系(?![统数列谱])", "是"),
    (r"(?<![相共不等如认赞陪协合唔])同(?![样时一步意学等])", "和"),
)]


# Southwestern Mandarin (Sichuan, Chongqing) words no other reading shares: rewritten wherever they appear.
_SOUTHWESTERN = [(re.compile(pattern), mandarin) for pattern, mandarin in (
    (r"莫得", "没有"), (r"啥子", "什么"), (r"跟到(?=[涨变增长大])", "跟着"), (r"一哈(?!哈)", "一下"), (r"(?<=[前后里上])头(?![发部像条])", "面"),
    (r"莫(?=[看让去用算管要每再重])", "别"), (r"跟到(?=[^。；;,]{0,8}[涨变增长大])", "跟着"),
)]


_SOUTHWESTERN_MARK = re.compile(r"莫得|啥子|一哈|[前后里上]头")

# Written Shaanxi (Guanzhong) speech: 嫑 (不要), 额 (我) before a verb of thinking or saying, 麻达 (问题), 咥 (吃).
_SHAANXI_I = r"额(?=觉|寻思|晓得|说|听|想|看|估计|记得)"  # 额 as "I", before a verb of thinking or saying
_SHAANXI_MARK = re.compile(rf"嫑|麻达|咥|{_SHAANXI_I}")
_SHAANXI = [(re.compile(pattern), mandarin) for pattern, mandarin in (
    (r"嫑", "不要"), (r"麻达", "问题"), (r"咥", "吃"), (_SHAANXI_I, "我"), (r"寻思", "想"),
    (r"(?<![\u3400-\u9fff])得是", "是不是"),
)]

# Written Wu (Shanghainese, and the Wenzhou and southern Zhejiang speech that writes 弗 and 呒): 勿 / 弗 (不),
# 呒没 (没有), 覅 (不要), 个 (的), 搭 (和), 辰光 (时候), 伊 (它), 侪 (都), 交关 / 老 (很), 存辣…里向 (存在…里面)...
_WU_MARK = re.compile(r"[侬侪噶弗呒覅搿]|阿拉|伊拉|辰光|交关|勿|里向")
_WU = [(re.compile(pattern), mandarin) for pattern, mandarin in (
    (r"辰光", "时候"), (r"交关", "很"), (r"伊拉", "它们"), (r"阿拉", "我们"), (r"侬", "你"), (r"侪", "都"),
    (r"(?<![请切])勿", "不"), (r"弗", "不"), (r"呒没有?", "没有"), (r"呒", "没"), (r"覅", "不要"), (r"噶", "这样"),
    (_GE_AS_DE, "的"),
    (r"搭(?![建配乘载车])", "和"), (r"(?<=[放写存摆留])[勒辣]", "在"), (r"里向", "里面"), (r"(?<=[快慢大小多少好])一眼", "一点"), (r"搿", "这"),
    (r"老(?=[大小多少快慢好重难省贵灵])", "很"), (r"一只(?=\s*[a-z\u3400-\u9fff])", "一个"), (r"伊(?!朗|利|始)", "它"),
)]


# Written Minnan (Hokkien: Quanzhou, Xiamen, Taiwanese speech): 毋 (不), 袂 (不会), 佮 / 共 (和), 仝 (同), 按呢 (这样),
# 家己 (自己), 足济 (很多), 无路用 (没用), 伊 (它), 个 (的), 爱 (要), 较 (更), 紧 (快), 免 (不用), 佫 (再).
_MINNAN_MARK = re.compile(r"[毋袂佮仝佫]|按呢|家己|足济|无路用|倚近|差无偌济|差无多|干焦|卡俭|无(?=会|使|是|被)")
_MINNAN = [(re.compile(pattern), mandarin) for pattern, mandarin in (
    (r"无仝", "不同"), (r"差无偌济|差无济|差无多", "差不多"), (r"无使", "不用"), (r"无(?=会|是|被|变)", "不"), (r"伊们", "它们"), (r"干焦", "只"), (r"卡俭", "更省"), (r"拢(?=[用是有要会])", "都"),
    (r"无(?=[减除加算存用])", "不"), (r"倚近", "接近"), (r"(?<=[缩变])做(?=\s*[\d1一二三四五六七八九十几半/])", "成"),
    (r"毋通", "不能"), (r"毋是", "不是"), (r"毋过", "不过"), (r"毋", "不"), (r"袂", "不会"), (r"佮", "和"),
    (r"(?<![一总公])共(?![享用同有计识])", "和"), (r"仝款", "一样"), (r"仝", "同"), (r"按呢", "这样"), (r"家己", "自己"),
    (r"足济", "很多"), (r"无路用", "没用"), (r"伊", "它"), (r"佫", "再"), (r"(?<=[较])紧", "快"), (r"较(?=[快慢大小多少好差近远])", "更"),
    (r"免(?=[再]?[算做存读])", "不用"), (r"爱(?=[用算存看读跟和])", "要"), (r"用着", "用到"),
    (_GE_AS_DE, "的"),
)]


# Written Eastern Min (Fuzhou, Ningde; the Min of Sanming and northern Fujian): 伓 (不), 其 (的), 蜀 (一), 只 (个),
# 觑 (看), 遘 (到), 囥 (存), 无 (没有), 毛 (没有), 野 (很), 恰 (更).
_EASTERN_MIN_MARK = re.compile(r"[伓蜀觑遘囥]")
_EASTERN_MIN = [(re.compile(pattern), mandarin) for pattern, mandarin in (
    (r"伓使", "不用"), (r"是伓是", "是"), (r"伓", "不"), (r"觑", "看"), (r"遘", "到"), (r"囥", "存"), (r"蜀", "一"),
    (_ZHI_AS_GE, "个"),
    (r"(?<![与尤极何])其(?![他它中实余次间后])", "的"),
    (r"(?<=还)无", "没有"), (r"无(?=重复|重新|再|需)", "不"), (r"毛(?=\s*(?:bias|偏置|β|参数))", "没有"),
    (r"野(?=[细小大快慢多少])", "很"), (r"恰(?=[快慢大小多少省])", "更"),
)]


# Written Gan and Xiang (Jiangxi, Hunan: Yingtan, Fuzhou in Jiangxi, Loudi, Chenzhou): 个 (的), 哒 (了), 渠 (它),
# 咯个 (这个), 个话 (的话), 只 (个), 自家 (自己), 蛮 (很), 跟到 (跟着); 冇 is read by the Cantonese table.
_GAN_XIANG_MARK = re.compile(r"哒|(?<![沟水])渠(?=个|们|的|是|就|也)|咯个|个话|(?<=[远近])个(?=[词字])|自家|(?<=[头住掉])个(?=[\s,，。约])")
_GAN_XIANG = [(re.compile(pattern), mandarin) for pattern, mandarin in (
    (r"咯个", "这个"), (r"个话", "的话"), (r"哒", "了"), (r"(?<![沟水])渠们", "它们"), (r"(?<![沟水])渠(?!道)", "它"),
    (_GE_AS_DE, "的"),
    (_ZHI_AS_GE, "个"), (r"自家", "自己"), (r"蛮(?=[大小多少快慢好])", "很"),
    (r"跟到(?=[^。；;,]{0,8}[涨变增长大])", "跟着"), (r"(?<=[\u3400-\u9fff])哩(?=[,，。；;]|$)", "了"),
)]


# Northern colloquial Mandarin (Henan, Shandong, Beijing, the north-east): 俺 (我), 咋 (怎么), 瞅 (看), 自个儿 (自己),
# 一块儿 (一起), 贼 before an adjective (很), 甭 (不用), 差不离 (差不多).
_NORTHERN_MARK = re.compile(r"木有|俺|咋|瞅|自个儿?|一块儿|得劲|贼(?=[快好多大慢])|甭|倍儿|差不离|介[么样个]|嘛呢")
_NORTHERN = [(re.compile(pattern), mandarin) for pattern, mandarin in (
    (r"俺们", "我们"), (r"俺", "我"), (r"咋(?!舌)", "怎么"), (r"自个儿?", "自己"), (r"一块儿", "一起"),
    (r"贼(?=[快好多大慢])", "很"), (r"甭", "不用"), (r"倍儿", "很"), (r"差不离儿?", "差不多"),
    (r"介(?=[么样个])", "这"), (r"大概齐", "大概"), (r"瞅", "看"),
    (r"木有", "没有"),
    (r"不叫(?=[^。；;,]{0,10}(?:看|知道|偷看))", "不让"),
    # The -儿 of Beijing speech ("快点儿", "完事儿", "这会儿") adds no meaning.
    (r"(?<=[点块会事样这那哪边头些])儿", ""),
)]

# Spoken Mandarin anywhere: 光 before a verb is 只 ("光算新来的那个词"), 除个 is 除以 ("光除个均方根"); 么得 / 么有
# (Hubei, Jiangxi, Jianghuai speech) and 木有 are 没有 ("BERT 么得因果掩码"), but not in 什么有 or 怎么得到.
_NOT_HAVE = r"(?<![什怎那这多要甚])么(?=得(?![到出])|有)|木(?=有)"
_SPOKEN_MARK = re.compile(rf"光|除个|{_NOT_HAVE}")
_SPOKEN = [(re.compile(pattern), mandarin) for pattern, mandarin in (
    (_NOT_HAVE, "没"),
    (r"(?<![阳灯目眼日月时风激荧曝反偏])光(?=\s*(?:算|除|存|看|用|要|记|留|拿|读|做|加|减|靠|管))", "只"),
    (r"(?<=除)个(?=\s*[\u3400-\u9fffa-z])", "以"),
)]

# Spanish words in an English answer ("each token se compara con todos los otros tokens", "loses some
# calidad"): rewritten only in an answer with a word no English sentence has.
_SPANISH_MARK = re.compile(r"\b(?:los|las|pero|porque|recalculas|calculas|no cambian|todos|todas|calidad|también|tambien|cada|otros|otras|entonces|memoria|"
                           r"siempre|nunca|varianza|más|después|despues|cuando|mismo|misma)\b")
_SPANISH = [(re.compile(rf"\b(?:{pattern})\b"), english) for pattern, english in (
    (r"se comparan? con", "is compared with"), (r"comparan? con", "compares with"), (r"todos los|todas las", "all the"),
    (r"todos|todas", "all"), (r"cada", "each"), (r"otros|otras|otro|otra", "other"), (r"calidad", "quality"),
    (r"memoria", "memory"), (r"varianza", "variance"), (r"como", "like"), (r"pero", "but"), (r"porque", "because"),
    (r"más", "more"), (r"menos", "less"), (r"mism[oa]s?", "same"), (r"rápido|rapido", "fast"), (r"lento", "slow"),
    (r"también|tambien", "also"), (r"entonces", "so"), (r"siempre", "always"), (r"nunca", "never"),
    (r"con", "with"), (r"sin", "without"), (r"sólo|solo", "only"), (r"cuando", "when"), (r"antes", "before"),
    (r"después|despues", "after"), (r"pierden?", "loses"), (r"algo de", "some"),
    (r"casi", "almost"), (r"igual que", "the same as"), (r"no cambian?", "do not change"), (r"recalculas|recalcular|recalcula",
    "recompute"), (r"calculas|calcular|calcula", "compute"), (r"nada", "nothing"), (r"del", "of the"), (r"de antes", "earlier"),
    (r"nuevos?|nuevas?", "new"), (r"pues mira|mira|pues|ya está", ""), (r"en el|en la", "in the"), (r"(?<=\w )y(?= \w)", "and"),
    (r"de", "of"), (r"los|las|el|la", "the"),
)]

# Taiwan's words for computing (after 繁體 has become 简体): 快取 (缓存), 记忆体 (内存), 资料 (数据), 平行计算
# (并行计算), 频宽 (带宽)...
_TAIWAN_MARK = re.compile(r"快取|记忆体|资料|程式|频宽|效能|演算法|位元|溢位|讯息|平行|推论|品质")
_TAIWAN = [(re.compile(pattern), mandarin) for pattern, mandarin in (
    (r"快取", "缓存"), (r"记忆体", "内存"), (r"资料", "数据"), (r"程式", "程序"), (r"频宽", "带宽"), (r"效能", "性能"),
    (r"演算法", "算法"), (r"位元", "比特"), (r"溢位", "溢出"), (r"讯息", "信息"), (r"平行(?=[计运处训算化地])", "并行"),
    (r"推论(?=时|阶段|的时候|期间)", "推理"), (r"品质", "质量"),
)]

# Hinglish (Hindi in Latin letters inside English): its particles and verbs in English words and order
# ("har token ko har doosre token se compare karna padta hai" reads "every token every other token with
# must compare"), enough for the English phrasings to find the claims.
_HINGLISH_MARK = re.compile(r"\b(?:yaar|hai|hain|nahi|nahin|kyunki|kyonki|isliye|sirf|karta|karte|karti|hota|hote|padta|"
                            r"dekho|matlab|jaata|jaate|chahiye|wala|wale|wali)\b")
_HINGLISH = [(re.compile(rf"\b(?:{pattern})\b"), english) for pattern, english in (
    (r"(\S+) ki jagah", r"instead of \1"), (r"ke liye", "for"), (r"ki wajah se", "because of"), (r"ke saath", "with"),
    (r"ke baad|baad mein", "after"), (r"ke hisaab se", "according to"), (r"ek saath", "at once"), (r"ek hi", "a single"),
    (r"sab kuch", "everything"), (r"phir se|dobara|wapas", "again"), (r"phir bhi", "still"), (r"dono taraf", "both sides"),
    (r"lekin|magar", "but"), (r"uske baad|iske baad", "after that"),
    (r"(?:uski|iski|unki|inki|uska|iska|unka|inka) (?:koi )?zaroorat nahin?(?: hai)?", "it is not needed"),
    (r"pata(?: hi)? nahin? chalta", "cannot tell"), (r"(\S+) (?:ki|ka|ke) (.{0,20}?)(?:koi )?zaroorat nahin?(?: hai)?", r"\1 is not needed \2"),
    (r"koi (\w+(?: \w+)?) nahin?(?: hai| hain| hota| hote)?", r"no \1"),
    (r"kabhi (\w+)(?: hi)? nahin?(?: (?:hota|hoti|hote|karta|karti|karte|banta|banti|bante)(?: hai| hain)?)?", r"never \1"),
    # A clause that ends in the negative copula ("yeh exact softmax attention nahi hai") is negated from its
    # start (or from "ki", "that"), where English puts the "not".
    (r"(?:(?<=^)|(?<=[,.;:!?] )|(?<=\n)|(?<= ki )|(?<=but ))(?:(yeh|ye|woh|wo) )?(?!but )((?:(?! ki )[^,.;:!?\n]){1,60}?) nahin? (?:hai|hain|hota|hoti|hote)(?=[,.;:!?\n]|$)",
     lambda m: f"{'this is' if m.group(1) else ''} not {m.group(2)}".strip()),
    (r"(\w+) (?:sakta|sakti|sakte)(?: hai| hain)?", r"can \1"), (r"ek baar", "once"), (r"ho (?:gaya|gayi|gaye)", "done"),
    (r"(apn[aei] )?(\w+) pe kaam aata(?: hai)?", lambda m: f"is used at {'its own' if m.group(1) else 'the'} {m.group(2)}"),
    (r"kaam (?:karta|karti|karte)(?: hai| hain)?", "works"), (r"kaam aata(?: hai)?", "is used"),
    (r"(\w+) bana (?:deta|deti|dete)(?: hai| hain)?", r"makes \1"), (r"apne se pehle(?: wale| ke)?", "earlier"),
    (r"se pehle(?: wale| ke)?", "before"), (r"aane wal[aei]", "future"), (r"apn[aei]", "its own"),
    (r"(step|position|gpu|time|init|length|level|token|layer)(s?) pe", r"\1\2 at"),
    (r"(\w+) nahin? (?:karta|karti|karte|hota|hoti|hote)(?: hai| hain)?", r"does not \1"),
    (r"(\w+) (?:karna|karni|karne) (?:padta|padti|padte)(?: hai| hain)?", r"must \1"),
    (r"(\w+) (?:karta|karti|karte)(?: hai| hain)?", r"\1s"),
    (r"(\w+) (?:karo|kar do|kar dete hain|kar deta hai|kar lete hain|kar leta hai)", r"\1"),
    (r"(\w+) ho (?:jaata|jaati|jaate)(?: hai| hain)?", r"gets \1"),
    (r"chahiye(?: hota hai| hai)?", "is needed"), (r"hota hai|hote hain|hoti hai|hai|hain", "is"), (r"nahin?", "not"),
    (r"(\w+) (?:ka|ki|ke)(?= \w)", r"\1's"), (r"ko", ""), (r"se", "with"), (r"har", "every"),
    (r"doosr[eai]|dusr[eai]|baaki|baki", "other"), (r"saare|saari|sabhi|sab", "all"), (r"sirf|bas", "only"),
    (r"nay[eai]", "new"), (r"puran[eai]", "old"), (r"kyunki|kyonki", "because"), (r"isliye|toh", "so"), (r"aur", "and"),
    (r"mein", "in"), (r"bina", "without"), (r"bhi", "also"), (r"kam", "less"), (r"zyada|jyada", "more"),
    (r"bahut", "very"), (r"bad[eai]", "large"), (r"chhot[eai]", "small"), (r"alag", "different"), (r"pehle", "first"),
    (r"jaisa|jaise|waise", "like"), (r"kuch", "some"), (r"ek", "one"), (r"yeh|ye", "this"), (r"woh|wo", "that"),
    (r"dekht[aie]|dekh", "sees"), (r"padht[aie]|padhega|padhna|padhne", "reads"), (r"likht[aie]", "writes"),
    (r"rakho|rakhna|rakht[aie]", "keep"), (r"nikaal(?:o|na|ne)?", "compute"), (r"zaroorat", "need"),
    (r"reht[aie]", "stays"), (r"bachat[aie]", "saves"), (r"poor[aie]", "whole"), (r"ya", "or"), (r"agl[aei]", "next"),
)]

# Taglish (Tagalog inside English: "hindi na nagbabawas ng mean", "walang pakialam sa order"): its particles,
# linkers and verbs in English words, enough for the English phrasings to find the claims. Verbs carry
# Tagalog affixes on English stems ("i-compute", "nag-o-overflow", "naso-save"), which are dropped.
_TAGALOG_MARK = re.compile(r"\b(?:yung|kasi|naman|walang|hindi|niya|diba|talaga|ganun|siya|mga|ng|tapos|kaya|pero|lang)\b")
_TAGALOG = [(re.compile(rf"\b(?:{pattern})\b"), english) for pattern, english in (
    (r"naka-([a-z]+?)e?", r"\1ed"),
    # a doubled first vowel after the affix ("na-aaverage") repeats the stem's first syllable, as Tagalog's aspect does
    (r"(?:nag|mag|na|ma|ina|ini|ico|ika|naso|nako|nagsh|pina|i)-(?:[a-z]{1,2}-)?(?!th\b)(?:([aeiou])(?=\1[a-z]{3}))?(?=[a-z])", ""),
    (r"(divides?|divided|dividing)( lang)? sa", r"\1\2 by"),
    (r"walang pakialam sa", "ignores"), (r"hindi (?:niya|nila|ko) (?:na )?(?:alam|maalala)|ewan(?: ko)?", "does not know"),
    (r"walang silbi", "useless"), (r"hindi na", "no longer"), (r"wala pang?", "not yet"), (r"wala nang|walang|wala", "no"),
    (r"hindi", "not"), (r"pa rin", "still"), (r"pa ulit|ulit", "again"), (r"lahat ng|lahat", "all"), (r"bawat", "each"),
    (r"sabay-sabay|sabay", "at once"), (r"dahil sa", "because of"), (r"kasi", "because"), (r"kaya", "so"),
    (r"pero", "but"), (r"tapos", "then"), (r"kung saan", "where"), (r"kung", "if"), (r"pag|kapag", "when"),
    (r"kahit", "even"), (r"para", "to"), (r"parang", "like"), (r"lang", "only"), (r"halos", "almost"),
    (r"mas konti(?:ng)?|mas kaunti", "fewer"), (r"mas mabilis", "faster"), (r"mas mabagal", "slower"),
    (r"mas maliit", "smaller"), (r"mas malaki(?:ng)?", "larger"), (r"mas mababa", "lower"), (r"mas mataas", "higher"),
    (r"mas", "more"), (r"sobrang", "very"), (r"pareho(?: lang)?|kapareho(?: ng)?", "same"), (r"iisang|isang", "a single"),
    (r"isa", "one"), (r"dalawa(?:ng)?", "two"), (r"tatlo(?:ng)?", "three"), (r"bagong", "new"), (r"bago", "before"),
    (r"luma(?:ng)?", "old"), (r"susunod na|susunod", "later"), (r"nauna|nakaraan", "previous"), (r"buong", "whole"),
    (r"malaki(?:ng)?", "large"), (r"maliit|maliliit", "small"), (r"mataas", "high"), (r"mababa", "low"), (r"malayo", "far"),
    (r"mabilis", "fast"), (r"mabagal", "slow"), (r"konti(?:ng)?|kaunti", "less"), (r"marami(?:ng)?", "many"),
    (r"lumalaki|lumaki", "grows"), (r"bumababa", "drops"), (r"binabaan", "lowered"), (r"nagiging|naging|maging", "becomes"),
    (r"nawawala|nawala", "vanishes"), (r"(?:dinidivide|hinahati) sa", "divides by"), (r"(?:nagbabawas|binabawas|ibawas)(?: ng)?", "subtracts"),
    (r"nagdadagdag|dinadagdag|dinagdagan", "adds"), (r"uulitin|inuulit", "recompute"), (r"kailangan(?: ng)?", "needs"),
    (r"ginagamit", "used"), (r"gumagamit(?: ng)?|gagamit|gamitin", "uses"), (r"babasahin|binabasa|basahin|basa", "read"),
    (r"iniimbak|nagtatago(?: ng)?|tinatago|sinasave", "stores"), (r"ginagawa", "done"), (r"iniikot", "rotate"),
    (r"makikita|nakikita", "sees"), (r"natitira", "remains"), (r"dumadaloy", "flows"), (r"diretso", "directly"),
    (r"magbabago|nagbabago", "changes"), (r"magbibigay", "gives"), (r"naaalala", "remembers"), (r"natatalo", "loses to"),
    (r"sayang", "wasteful"), (r"tipid sa", "saves"), (r"tipid", "cheap"), (r"mismo", "itself"), (r"alam", "know"),
    (r"sagot", "answer"), (r"gitna", "middle"), (r"simula", "start"), (r"kapalit", "trade-off"), (r"totoong|totoo", "true"),
    (r"(?<=\b[a-z]) at (?=[a-z]\b)|(?<=\b[a-z]_[a-z]) at (?=[a-z]_[a-z]\b)|(?<=reads) at (?=writes)", " and "),
    (r"(?<=\w )o(?= \w)", "or"), (r"ng", "of"), (r"yung|ang", "the"), (r"sa", "in"), (r"mga|na|ay|si|ni|nang|pa", ""),
    (r"niya|siya|nila|sila|ito|iyon|yun|yan|nito", "it"), (r"mo|ko|natin|namin|ka", ""),
    (r"po|naman|talaga|diba|ganun|ata|daw|medyo|siguro|eh|nga|pala|muna|pati", ""),
)]

# Nigerian Pidgin in an English answer ("e no get any mask wey dey block the future", "na memory movement e dey
# save, no be maths"): its copulas, pronouns, aspect markers and negation in English words.
_PIDGIN_MARK = re.compile(r"\b(?:dey|wetin|abeg|wahala|sabi|wey|una|no be|na im|comot)\b|(?<!\bi )\bam\b")
_PIDGIN = [(re.compile(rf"\b(?:{pattern})\b"), english) for pattern, english in (
    (r"no be", "not"), (r"na im", "is"), (r"no ever", "never"), (r"no get", "has no"), (r"no dey", "does not"),
    (r"no fit", "cannot"), (r"no go", "will not"), (r"go dey", "will be"), (r"go (?=big|small|large|high|low|slow|fast|grow|become|be\b)", "gets "),
    (r"(?<=\w )go(?= \w)", "will"), (r"dey\s+", ""), (r"dey", ""), (r"na", "is"), (r"wey", "that"), (r"wetin", "what"), (r"sabi", "know"),
    (r"fit", "can"), (r"don", "has"), (r"get", "has"), (r"dem", "they"), (r"(?<!\bi )am", "it"), (r"im", "its"),
    (r"e(?= \w)", "it"), (r"una", "you"), (r"small small", "gradually"), (r"comot", "out"), (r"wahala", "problem"),
    (r"abeg|sha|abi|o(?=[,.!?]|$)", ""),
)]

# Jamaican Patois in an English answer ("it nuh di same as softmax", "train fi guess di next token").
_PATOIS_MARK = re.compile(r"\b(?:di|nuh|haffi|inna|pon|yuh|seh|bredda|wid|widout)\b")
_PATOIS = [(re.compile(rf"\b(?:{pattern})\b"), english) for pattern, english in (
    (r"nuh", "not"), (r"haffi", "have to"), (r"inna", "in"), (r"pon", "on"), (r"yuh", "you"), (r"seh", "say"),
    (r"widout", "without"), (r"wid", "with"), (r"yu", "you"), (r"di", "the"), (r"dat", "that"), (r"(?:(?<=^)|(?<=[.;:!?] ))dem", "they"), (r"dem", "them"),
    (r"den", "then"), (r"fi", "for"),
    (r"wah", "what"), (r"everyting", "everything"), (r"ting", "thing"), (r"bout", "about"), (r"jus", "just"),
    (r"lef", "left"), (r"an(?= (?:[^aeiou\s]|(?:it|i|a|each|every|if|on|in|other|our|us)\b))", "and"), (r"mi", "my"),
    (r"bredda", "brother"), (r"mash up", "ruins"), (r"mek", "make"), (r"wha", "what"), (r"(?<=s) dem(?= [a-z])", ""),
)]

# Trinidadian English ("shiftin all de inputs by de same constant doh change softmax", "it cyah see de future"),
# and the Cajun English that shares its "de", "dat", "dan" ("never hold more dan W entries", "wit a window").
_TRINI_MARK = re.compile(r"\b(?:doh|allyuh|cyah|cyan|dat)\b|\bde\b(?=.*\bde\b)")
_TRINI = [(re.compile(rf"\b(?:{pattern})\b"), english) for pattern, english in (
    (r"doh", "don't"), (r"cyah|cyan", "can't"), (r"allyuh", "you all"), (r"de", "the"), (r"dat", "that"),
    (r"(?:(?<=^)|(?<=[.;:!?] ))dem", "they"), (r"dem", "them"), (r"dey", "they"), (r"wah", "what"), (r"ting", "thing"),
    (r"dan", "than"), (r"bout", "about"), (r"wit", "with"), (r"dis", "this"), (r"dese", "these"), (r"dose", "those"),
)]

# Geordie (Tyneside) English ("divvent change the softmax", "spun roond by mθ", "aal in parallel", "ower").
_GEORDIE_MARK = re.compile(r"\b(?:divvent|divn'?t|howay|hinny|aal|roond|ower|cannit)\b")
_GEORDIE = [(re.compile(rf"\b(?:{pattern})\b"), english) for pattern, english in (
    (r"divvent|divn'?t", "don't"), (r"cannit", "can't"), (r"aal", "all"), (r"roond", "round"), (r"ower", "over"),
    (r"te(?= \w)", "to"), (r"ye", "you"), (r"o(?= [a-z])", "of"), (r"wor", "our"),
    (r"an(?= (?:[^aeiou\s]|(?:it|i|a|each|every|if|on|in|other|our|us)\b))", "and"),
)]

# Argentine (Rioplatense) Spanish in an English answer ("caching old queries is re pointless, o sea dead weight", "che").
_RIOPLATENSE_MARK = re.compile(r"\b(?:che|viste|o sea)\b")
_RIOPLATENSE = [(re.compile(pattern), english) for pattern, english in (
    (r"\bre\s+(?=[a-z]{3,})", "really "), (r"\bo sea\b", "that is"), (r",?\s*\b(?:che|viste)\b", ""),
)]

# Yorkshire and northern English ("t' dot product", "tha keeps 'em", "nowt from before gets worked out again").
_NORTHERN_ENGLISH_MARK = re.compile(r"(?<![\w'])t'(?:\s|(?=[a-z]))|\btha\b|\bwi'|\b(?:nowt|owt|summat|nobbut|dun't)\b")
_NORTHERN_ENGLISH = [(re.compile(pattern), english) for pattern, english in (
    (r"(?<![\w'])t'(?:\s|(?=[a-z]))", "the "), (r"\bdun't\b", "don't"), (r"\btha'd\b", "you'd"), (r"\btha\b", "you"), (r"\bwi'", "with"), (r"\bnowt\b", "nothing"),
    (r"\bowt\b", "anything"), (r"\bsummat\b", "something"), (r"\bnobbut\b", "only"), (r"'em\b", "them"),
)]

# Negative concord, in many Englishes ("exact, not no approximation", "it doh need no warm-up"): one negation.
_CONCORD_MARK = re.compile(r"\b(?:not|don't|doesn't|didn't|never|nuh|doh)\s+(?:\w+\s+)?no\b")
_CONCORD = [(re.compile(r"\b(not|don't|doesn't|didn't|never|nuh|doh)(\s+(?:\w+\s+)?)no\b"), r"\1\2any")]

# Contractions typed without their apostrophe ("it doesnt know the future", "u cant see ahead").
_BARE_CONTRACTION_MARK = re.compile(r"\b(?:doesnt|dont|didnt|isnt|arent|wasnt|werent|cant|couldnt|wouldnt|shouldnt|"
                                    r"havent|hasnt|wont)\b")
_BARE_CONTRACTION = [(_BARE_CONTRACTION_MARK, lambda m: {"cant": "can't", "wont": "won't"}.get(m.group(0), m.group(0)[:-1] + "'t"))]

# Pinyin written beside the characters by a learner not sure of them ("huǎn cún（缓存）"): the characters.
_PINYIN_MARK = re.compile(r"[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ]")
_PINYIN = [(re.compile(r"(?:[a-zü]*[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ][a-zü]*\s*){1,4}\(\s*([\u3400-\u9fff]+)\s*\)"), r"\1")]

# Scots in an English answer ("nae causal mask", "disnae ken the order o the words").
_SCOTS_MARK = re.compile(r"\b(?:nae|disnae|dinnae|cannae|isnae|wouldnae|hale|tae|whit|afore|ken|dusn't|weel|naebody|efter|peedie|aboot|jist|ithers?)\b")
_SCOTS = [(re.compile(rf"\b(?:{pattern})\b"), english) for pattern, english in (
    (r"disnae|dusn't", "doesn't"), (r"weel", "well"), (r"naebody", "nobody"), (r"efter", "after"), (r"peedie", "small"),
    (r"aboot", "about"), (r"jist", "just"), (r"ithers", "others"), (r"ither", "other"), (r"aa", "all"), (r"aff", "off"),
    (r"hid", "it"), (r"mak", "make"), (r"storin", "storing"), (r"dinnae", "don't"), (r"cannae", "can't"), (r"isnae", "isn't"), (r"wouldnae", "wouldn't"),
    (r"nae", "no"), (r"hale", "whole"), (r"tae", "to"), (r"whit", "what"), (r"afore", "before"), (r"ken", "know"),
    (r"oot", "out"), (r"wi", "with"), (r"ain", "own"), (r"o(?= the\b)", "of"), (r"ye", "you"), (r"wee", "small"),
)]

# Hawaiian Pidgin in an English answer ("da attention no can tell da order", "e to da zero stay one", "RMSNorm no
# bodda taking away da average"): "stay" as the copula, "no" before a verb as its negation, "da" for "the".
_HAWAIIAN_MARK = re.compile(r"\b(?:brah|bruddah|da kine|pau|no can|neva|plenny|odda|anodda|togedda|notting|everyting|dass|bodda)\b"
                            r"|(?<!\w)(?:mo|fo)'(?!\w)|\bda\b(?=.*\bda\b)")
_HAWAIIAN_VERBS = ("can|care|change|bodda|bother|subtract|block|write|keep|need|see|know|tell|look|use|matter|work|grow|"
                   "store|save|touch|make|do|add|learn|help|hurt|blow|cost|read|recompute|compute|redo|share|cache|mix|peek")
# "stay" after "to", a modal or a plural subject is the English verb ("they stay", "will stay").
_AFTER_MODAL = re.compile(r"\b(?:to|will|would|could|should|must|may|might|they|we|you|i|and|or|not|can|'ll|'d)\s+$")
_HAWAIIAN = [(re.compile(pattern), english) for pattern, english in (
    (rf"\bno ({_HAWAIIAN_VERBS}) (?:notting|nothing)\b", r"does not \1 anything"),
    (r"\bno can\b", "cannot"),
    (rf"\bno(?= (?:{_HAWAIIAN_VERBS})\b)", "does not"),
    (r"\bneva\b", "never"),
    (r"\bstay\b", lambda m: "stay" if _AFTER_MODAL.search(m.string, 0, m.start()) else "is"),
    (r"\bda kine\b", "the thing"), (r"\bda\b", "the"), (r"\bdass\b", "that's"), (r"\bdat\b", "that"),
    (r"\bdis\b", "this"), (r"\bdose\b", "those"), (r"\bdem\b", "them"), (r"\bden\b", "then"), (r"\bwen\b", "when"),
    (r"\bwit\b", "with"), (r"\bum\b", "them"), (r"(?<!\w)an'(?!\w)", "and"), (r"(?<!\w)fo'(?!\w)", "for"),
    (r"(?<!\w)mo'(?!\w)", "more"), (r"\bnotting\b", "nothing"), (r"\bevery(ting)\b", "everything"),
    (r"\bsome(ting)\b", "something"), (r"\bting(s?)\b", r"thing\1"), (r"\banodda\b", "another"), (r"\bodda\b", "other"),
    (r"\btogedda\b", "together"), (r"\bplenny\b", "plenty"), (r"\blil\b", "little"), (r"\bbodda\b", "bother"),
    (r",?\s*\bbrah\b", ""), (r"\bpau\b", "done"),
)]

# Early Modern English, as a role-player or a bard writes it ("its spread widens as d_k groweth", "the gradient all
# but dieth", "the window saveth naught"): the verb in -eth is the verb in -s.
_ARCHAIC_MARK = re.compile(r"\b(?:hath|doth|thou|thee|thy|thine|verily|naught|hark|methinks|forsooth|wherefore|'tis|nigh)\b"
                           r"|\b[a-z]{2,}eth\b.*\b[a-z]{2,}eth\b")
_VOWEL = "aeiou"


def _modern_verb(match: re.Match) -> str:
    """"maketh" → "makes", "groweth" → "grows", "dieth" → "dies", "costeth" → "costs"."""
    stem = match.group(1)
    silent_e = stem[-1] in _VOWEL or (  # "di", "go": "dies", "goes"; "mak", "sav" (one vowel, one consonant): "makes"
        len(stem) >= 3 and stem[-1] not in _VOWEL + "wyx" and stem[-2] in _VOWEL and stem[-3] not in _VOWEL)
    return stem + ("es" if silent_e else "s")


_ARCHAIC = [(re.compile(pattern), english) for pattern, english in (
    (r"\bhath\b", "has"), (r"\bdoth\b", "does"), (r"\b(?:thou|thee|ye)\b", "you"), (r"\bthy\b|\bthine\b", "your"),
    (r"\bnaught\b", "nothing"), (r"\bnigh\b", "nearly"), (r"\s*\b(?:verily|forsooth|methinks|hark)\b[,!]?", " "),
    # not "teeth", "Macbeth", nor an ordinal ("twentieth")
    (r"\b(?!(?:teeth|macbeth|elizabeth)\b)([a-z]{2,}?)(?<!ti)eth\b", _modern_verb),
)]

# Melanesian Pidgin in an English answer: Tok Pisin (Papua New Guinea: "token i no inap lukim ol token bihain", "K,V no
# senisim", "compute q for the new token tasol") and Solomons Pijin ("variance blong score hem grow olsem d_k", "iumi
# storim an reusim", "olketa score go bigfala tumas"): its pronouns, particles, negation and the -im of its verbs in
# English words.
_PIDGIN_MELANESIAN_MARK = re.compile(r"\b(?:tasol|lukim|bihain|bihaen|inap|senisim|kamap|olsem|wanpela|tupela|bilong|blong|mipela|yupela|"
                                     r"olketa|nomoa|iumi|wanfala|bigfala|tumas|lelebet|klosap|narafala|distaem|bifoa|mekem)\b")
_PIDGIN_MELANESIAN = [(re.compile(rf"\b(?:{pattern})\b"), english) for pattern, english in (
    (r"no inap", "cannot"), (r"inap", "can"),
    (r"no(?= (?:senisim|kamap|lukim|change|[a-z]{3,}im|divide|add|learn|subtract|store|recompute|compute|tie|see|need|use|share)\b)",
     "do not"),
    (r"lukim", "see"), (r"senisim|changim", "change"), (r"kamap", "exist"), (r"bihain|bihaen", "later"), (r"bifoa", "before"),
    (r"tasol|nomoa", "only"), (r"olsem", "like"), (r"wanpela|wanfala|wan", "one"), (r"tupela", "two"), (r"bilong|blong", "of"),
    (r"mipela|iumi", "we"), (r"yupela", "you"), (r"olketa", "the"), (r"bigfala", "big"), (r"smol", "small"),
    (r"tumas", "too much"), (r"lelebet", "a little"), (r"klosap", "close to"), (r"narafala", "other"), (r"distaem", "now"),
    (r"mekem", "make"), (r"(cheap|fast|big|small|slow|short|long)\s+moa", r"\1er"), (r"moa", "more"), (r"sem", "same"), (r"difren", "different"), (r"weaka", "weaker"), (r"nating", "nothing"),
    (r"eni", "any"), (r"evriwan", "everyone"), (r"evri", "every"), (r"fo", "for"), (r"bikos", "because"), (r"bat", "but"),
    (r"dabol", "doubles"), (r"dae", "dies"), (r"stap", "stays"), (r"dat nao", "that is"), (r"nao", ""), (r"staka", "many"),
    (r"namba", "number"), (r"numba", "numbers"), (r"hem", "it"),
    (r"scalem", "scale"),
    (r"an(?= (?:[^aeiou\s]|(?:it|i|a|each|every|if|on|in|other|our|us)\b))", "and"),
    # the transitive -im on an English verb ("storim", "reusim", "computim", "addim", "sharim")
    (r"([a-z]{3,}?)e?im", lambda m: {"stor": "store", "reus": "reuse", "us": "use", "shar": "share", "scal": "scale"}.get(m.group(1), m.group(1))),
    (r"mi ting", "i think"), (r"(?<=\bit )i(?= \w)|(?<=\btoken )i(?= (?:no|can|cannot|do|see)\b)", ""),
    (r"ol(?= \w)", "the"), (r"yu ken", "you can"), (r"yu", "you"),
)]

#: Each dialect's (or tongue's) rewrites, applied to an answer that carries one of its marks.
_DIALECTS = [(_SOUTHWESTERN_MARK, _SOUTHWESTERN), (_SHAANXI_MARK, _SHAANXI), (_WU_MARK, _WU), (_MINNAN_MARK, _MINNAN), (_EASTERN_MIN_MARK, _EASTERN_MIN), (_GAN_XIANG_MARK, _GAN_XIANG),
             (_CANTONESE_MARK, _CANTONESE_IN_CONTEXT + _CANTONESE), (_NORTHERN_MARK, _NORTHERN),
             (_SPOKEN_MARK, _SPOKEN), (_TAIWAN_MARK, _TAIWAN), (_SPANISH_MARK, _SPANISH),
             (_HINGLISH_MARK, _HINGLISH), (_TAGALOG_MARK, _TAGALOG), (_PIDGIN_MARK, _PIDGIN),
             (_PIDGIN_MELANESIAN_MARK, _PIDGIN_MELANESIAN), (_PATOIS_MARK, _PATOIS), (_SCOTS_MARK, _SCOTS), (_TRINI_MARK, _TRINI),
             (_NORTHERN_ENGLISH_MARK, _NORTHERN_ENGLISH), (_RIOPLATENSE_MARK, _RIOPLATENSE), (_GEORDIE_MARK, _GEORDIE),
             (_HAWAIIAN_MARK, _HAWAIIAN),
             (_ARCHAIC_MARK, _ARCHAIC),
             (_BARE_CONTRACTION_MARK, _BARE_CONTRACTION),
             (_CONCORD_MARK, _CONCORD), (_PINYIN_MARK, _PINYIN)]


def standard_words(text: str) -> str:
    """Written Sichuanese, Shaanxi, Wu, Minnan, Eastern Min, Gan and Xiang, Cantonese, northern and spoken colloquial, and Taiwan's terms in
    Mandarin words; the Spanish, Hindi, Tagalog, Pidgin (Nigerian, Hawaiian and Melanesian), Patois, Scots, Trinidadian and Yorkshire
    words of an English answer in English; pinyin beside characters dropped (the rest of ``text`` as
    it was)."""
    for mark, rewrites in _DIALECTS:
        if mark.search(text):
            for pattern, standard in rewrites:
                text = pattern.sub(standard, text)
    return text
