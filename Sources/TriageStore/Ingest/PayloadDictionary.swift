import CZlib

/// The preset dictionaries kept payloads are compressed with, one per source: the member names
/// and common values every event of that source repeats, the most frequent last (deflate finds
/// the nearest match cheapest). A payload names its dictionary by the dictionary's Adler-32, so a
/// dictionary, once shipped, never changes: a better one is added beside it, and `forSource`
/// moves to it, while `withAdler` still reads what the older one compressed.
enum PayloadDictionary {
    /// errtriage's native lines (FORMATS.md).
    static let native = Array(#"""
    "custom_keys":{"error_codes_stack":"","message":"","kind":"non-fatal","kind":"crash","kind":"anr","environment":"production","environment":"staging","session_id":"s-","user_id":"u","network":"wifi","network":"cellular","network":"offline","device":{"model":"iPhone","model":"Pixel ","orientation":"portrait","orientation":"landscape","app_state":"foreground","app_state":"background","free_ram":,"free_disk":,"jailbroken":false},"os":{"name":"iOS","name":"Android","version":""},"app":{"version":"","build":""},"chain":"UserError. - InteractorError. - LogicError. - APIError. - NetworkError. - HTTPError.no","codes":"US-IN-LO-AP-NE-HT","timestamp":"2026-","event_id":"
    """#.utf8)

    /// Sentry SDKs' event items (Python, Go, Ruby, Java, JavaScript, .NET, Cocoa, Android).
    static let sentry = Array(#"""
    "extra":{},"modules":{},"request":{"url":"http://","method":"GET","method":"POST","query_string":"","headers":{"Host":"","User-Agent":"","Accept":"*/*","Content-Type":"application/json","Authorization":"[Filtered]","Cookie":"[Filtered]"},"env":{"REMOTE_ADDR":""}},"breadcrumbs":{"values":[{"type":"default","type":"http","category":"httplib","category":"query","category":"navigation","category":"ui.click","level":"info","message":"","data":{"url":"","method":"","status_code":200,"reason":"OK"},"timestamp":}]},"contexts":{"runtime":{"name":"CPython","version":"3.","build":""},"os":{"name":"Linux","version":"","kernel_version":""},"device":{"family":"","model":"","arch":"x86_64","simulator":false},"app":{"app_identifier":"","app_version":"","app_build":"","in_foreground":true},"trace":{"trace_id":"","span_id":"","parent_span_id":null,"op":"","status":"","type":"trace"},"browser":{"name":"","version":""}},"sdk":{"name":"sentry.python","name":"sentry.go","name":"sentry.ruby","name":"sentry.cocoa","name":"sentry.java.android","version":"","integrations":[],"packages":[{"name":"pypi:sentry-sdk","version":""}]},"server_name":"","transaction":"","logger":"","logentry":{"message":"","params":[],"formatted":""},"tags":{},"user":{"id":"","ip_address":"{{auto}}","email":""},"dist":"","environment":"production","release":"@","level":"error","platform":"python","platform":"go","platform":"ruby","platform":"cocoa","platform":"java","platform":"javascript","timestamp":"2026-","event_id":"","threads":{"values":[{"id":,"name":"","crashed":false,"current":true,"main":true}]},"exception":{"values":[{"type":"","value":"","module":"","mechanism":{"type":"generic","type":"excepthook","type":"threading","handled":true,"handled":false,"exception_id":0,"parent_id":0,"source":"__cause__","source":"__context__"},"stacktrace":{"frames":[{"filename":"","abs_path":"/usr/lib/python3/","function":"","module":"","lineno":,"colno":,"pre_context":[""],"context_line":"","post_context":[""],"vars":{},"in_app":true},{"filename":"","abs_path":"","function":"","module":"","lineno":,"pre_context":["","",""],"context_line":"    ","post_context":["","",""],"vars":{"self":"<","e":"","args":"[]","kwargs":"{}"},"in_app":false}]}}]}}
    """#.utf8)

    /// Rows of a Crashlytics BigQuery export.
    static let crashlytics = Array(#"""
    "custom_keys":[{"key":"","value":""}],"breadcrumbs":[{"name":"","timestamp":"","params":[{"key":"","value":""}]}],"logs":[{"timestamp":"","message":""}],"blame_frame":{"line":,"file":"","symbol":"","offset":,"address":,"library":"","owner":"DEVELOPER","owner":"VENDOR","owner":"SYSTEM","blamed":true},"exceptions":[{"type":"","exception_message":"","nested":false,"title":"","subtitle":"","blamed":false,"frames":[{"line":,"file":"","symbol":"","offset":,"address":,"library":"","owner":"DEVELOPER","blamed":false}]}],"errors":[{"queue_name":"","code":,"title":"","subtitle":"","blamed":true,"frames":[]}],"user":{"name":null,"email":null,"id":""},"crashlytics_sdk_version":"","storage":{"used":"","free":""},"memory":{"used":"","free":""},"operating_system":{"name":"iOS","name":"Android","display_version":"","modification_state":"UNMODIFIED","type":"IOS","type":"ANDROID","device_type":"MOBILE"},"device":{"manufacturer":"Apple","model":"iPhone","architecture":"arm64"},"application":{"build_version":"","display_version":""},"process_state":"FOREGROUND","process_state":"BACKGROUND","app_orientation":"PORTRAIT","installation_uuid":"","firebase_session_id":"","error_type":"NON_FATAL","error_type":"FATAL","error_type":"ANR","received_timestamp":" UTC","event_timestamp":"2026-","issue_id":"","event_id":"","bundle_identifier":"","platform":"IOS","platform":"ANDROID"
    """#.utf8)

    /// The ELK-style reporter's objects.
    static let elk = Array(#"""
    "ios.metadata":{},"android.metadata":{},"domain":"com.","code":,"mobile":{"version":"","build_number":,"platform":"ios","platform":"android","network":"wifi","network":"cellular","network":"offline","development":false},"message":"","reported_at":"2026-","environment":"production"
    """#.utf8)

    /// Every dictionary this build reads, by its Adler-32.
    static let all: [UInt32: [UInt8]] = Dictionary(uniqueKeysWithValues: [native, sentry, crashlytics, elk].map { (adler($0), $0) })

    /// The dictionary a payload of `source` is compressed with now; nil for a source without one.
    static func forSource(_ source: String) -> [UInt8]? {
        switch source {
        case "native": native
        case "sentry": sentry
        case "crashlytics": crashlytics
        case "elk": elk
        default: nil
        }
    }

    /// The dictionary whose Adler-32 a zlib stream names.
    static func withAdler(_ value: UInt32) -> [UInt8]? { all[value] }

    static func adler(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { b in CZlib.adler32(CZlib.adler32(0, nil, 0), b.baseAddress, uInt(b.count)) })
    }
}
