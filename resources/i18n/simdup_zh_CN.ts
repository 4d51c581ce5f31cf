<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Commands</name>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="159"/>
        <source>Choose folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="160"/>
        <source>Try the sample folder</source>
        <translation>试用示例文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="161"/>
        <source>Scan several folders…</source>
        <translation>同时扫描多个文件夹…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="162"/>
        <source>Scan again</source>
        <translation>重新扫描</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="163"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="164"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="165"/>
        <source>Export HTML report…</source>
        <translation>导出 HTML 报告…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="166"/>
        <source>Save results…</source>
        <translation>保存结果…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="167"/>
        <source>Open saved results…</source>
        <translation>打开已保存的结果…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="168"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="169"/>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="170"/>
        <source>Mark all but references</source>
        <translation>标记除参照外的全部</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="171"/>
        <source>Clear marks</source>
        <translation>清除标记</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="172"/>
        <source>Send marked to trash…</source>
        <translation>将已标记文件移到回收站…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="173"/>
        <source>Move marked to…</source>
        <translation>将已标记文件移动到…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="174"/>
        <source>Mark or unmark</source>
        <translation>标记或取消标记</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="175"/>
        <source>Make reference</source>
        <translation>设为参照</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="176"/>
        <source>Not a duplicate of the reference</source>
        <translation>不是参照文件的副本</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="177"/>
        <source>Remove from results</source>
        <translation>从结果中移除</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="178"/>
        <source>Restore from a manifest…</source>
        <translation>按清单恢复…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="179"/>
        <source>Undo the last move or trash</source>
        <translation>撤销上一次移动或删除</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="180"/>
        <source>Keep in each group</source>
        <translation>每组保留</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="181"/>
        <source>the cleanest copy (nothing added)</source>
        <translation>最干净的一份（未添加内容）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="182"/>
        <source>the oldest file</source>
        <translation>最早的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="183"/>
        <source>the newest file</source>
        <translation>最新的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="184"/>
        <source>the largest file</source>
        <translation>最大的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="185"/>
        <source>the smallest file</source>
        <translation>最小的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="186"/>
        <source>the file with the most text</source>
        <translation>文字最多的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="187"/>
        <source>the file with the shortest path</source>
        <translation>路径最短的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="188"/>
        <source>the file with the longest path</source>
        <translation>路径最长的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="189"/>
        <source>a file in the current file&apos;s folder</source>
        <translation>与当前文件同一文件夹中的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="190"/>
        <source>Not-duplicates list…</source>
        <translation>非重复列表…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="191"/>
        <source>Reference folders…</source>
        <translation>参照文件夹…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="192"/>
        <source>Excluded folders…</source>
        <translation>排除的文件夹…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="193"/>
        <source>Invert marks</source>
        <translation>反向标记</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="194"/>
        <source>Mark copies</source>
        <translation>标记副本</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="195"/>
        <source>in the current file&apos;s folder</source>
        <translation>当前文件所在文件夹中的</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="196"/>
        <source>whose path contains…</source>
        <translation>路径包含…的</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="197"/>
        <source>older than their reference</source>
        <translation>比参照文件旧的</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="198"/>
        <source>smaller than their reference</source>
        <translation>比参照文件小的</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="199"/>
        <source>Copy marked to…</source>
        <translation>复制已标记的文件到…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="200"/>
        <source>Compare others with this file</source>
        <translation>用此文件与其他文件对比</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="201"/>
        <source>Compare with the reference</source>
        <translation>与参照文件对比</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="202"/>
        <source>Open in editor</source>
        <translation>用编辑器打开</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="203"/>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="204"/>
        <source>Add a folder to a library…</source>
        <translation>将文件夹加入文章库…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="205"/>
        <source>Check new articles against a library…</source>
        <translation>用文章库检查新文章…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="206"/>
        <source>Check one article against a library…</source>
        <translation>用文章库检查一篇文章…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="207"/>
        <source>Library statistics…</source>
        <translation>文章库统计…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="208"/>
        <source>&amp;Library</source>
        <translation>文章库(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="209"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="210"/>
        <source>&amp;Actions</source>
        <translation>操作(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/commands.py" line="211"/>
        <source>Lan&amp;guage</source>
        <translation>语言(&amp;G)</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="215"/>
        <source>◀ Previous difference</source>
        <translation>◀ 上一处差异</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="216"/>
        <source>Next difference ▶</source>
        <translation>下一处差异 ▶</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="217"/>
        <source>Fingerprint details</source>
        <translation>指纹详情</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="220"/>
        <source>Show each file&apos;s 64-bit fingerprint (orange where the two differ: hover a cell for the words that changed it) and how many bits apart they are.</source>
        <translation>显示每个文件的 64 位指纹（两者不同之处标为橙色，鼠标停在格子上可看到引起变化的词）以及相差几位。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="237"/>
        <source>Select a file to compare it with its reference.</source>
        <translation>选择一个文件，与其参照文件对比。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="246"/>
        <source>Text similarity {0:.1f}% · 1 difference</source>
        <translation>文本相似度 {0:.1f}% · 1 处差异</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="248"/>
        <source>Text similarity {0:.1f}% · {1} differences</source>
        <translation>文本相似度 {0:.1f}% · {1} 处差异</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="251"/>
        <source>fingerprints {0} of 64 bits apart</source>
        <translation>指纹相差 {0}/64 位</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="275"/>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="242"/>
        <source>Similarity {0:.1f}% by the {1} method · differences: {2}</source>
        <translation>按 {1} 方法的相似度 {0:.1f}% · 差异：{2}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="325"/>
        <source>Bit {0}: {1} here, {2} there. The words that pushed it (weight here : there):</source>
        <translation>第 {0} 位：此处为 {1}，另一侧为 {2}。推动这一位的词（此处权重 : 另一侧权重）：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/compare.py" line="340"/>
        <source>{0} of {1}</source>
        <translation>第 {0} 处，共 {1} 处</translation>
    </message>
</context>
<context>
    <name>Comparing</name>
    <message>
        <location filename="../../simdup_gui/ui/comparing.py" line="44"/>
        <source>text taken from the {0} file</source>
        <translation>取自 {0} 文件的文字</translation>
    </message>
</context>
<context>
    <name>FileActions</name>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="68"/>
        <source>Acting on {0} file…</source>
        <translation>正在处理 {0} 个文件…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="68"/>
        <source>Acting on {0} files…</source>
        <translation>正在处理 {0} 个文件…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="73"/>
        <location filename="../../simdup_gui/ui/file_actions.py" line="150"/>
        <source>Nothing was done: {0}</source>
        <translation>未执行任何操作：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="79"/>
        <source>Done with {0} of {1}; {2} skipped, {3} failed. Manifest: {4}</source>
        <translation>已处理 {1}中的 {0} 个；跳过 {2} 个，失败 {3} 个。清单：{4}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="93"/>
        <source>Copy the marked files to</source>
        <translation>将已标记的文件复制到</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="102"/>
        <source>Copied {0} of {1} to {2}.</source>
        <translation>已将 {1}中的 {0} 个复制到 {2}。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="111"/>
        <source>Nothing was moved or trashed yet.</source>
        <translation>还没有移动或删除过文件。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="118"/>
        <source>Restore from a manifest</source>
        <translation>按清单恢复</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="130"/>
        <source>Restored {0} of {1}.</source>
        <translation>已恢复 {1}中的 {0} 个。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="138"/>
        <source>No files are marked.</source>
        <translation>没有已标记的文件。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="143"/>
        <source>Move marked files to</source>
        <translation>将已标记文件移动到</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="155"/>
        <source>{0} from {1} ({2})</source>
        <translation>{1}中的 {0}（{2}）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="159"/>
        <source>Send {0} to the trash?</source>
        <translation>把{0}移到回收站？</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/file_actions.py" line="161"/>
        <source>Move {0} to {1}?</source>
        <translation>把{0}移动到 {1}？</translation>
    </message>
</context>
<context>
    <name>FolderLists</name>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="49"/>
        <source>Scan several folders</source>
        <translation>同时扫描多个文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="50"/>
        <source>The files of all these folders are compared with one another.</source>
        <translation>这些文件夹中的所有文件会互相比较。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="53"/>
        <source>Add a folder to the scan</source>
        <translation>添加要扫描的文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="64"/>
        <source>Not duplicates</source>
        <translation>非重复</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="66"/>
        <source>You said these files are not duplicates of each other: they never share a group. Remove a pair to let its files be grouped again.</source>
        <translation>您已说明这些文件互不重复：它们不会出现在同一组中。移除一对后，这两个文件可以重新归组。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="79"/>
        <source>The list on disk is unchanged: {0}</source>
        <translation>磁盘上的列表未改动：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="86"/>
        <source>Files in these folders (inside the folder you scan) are never marked, moved or trashed, and a group&apos;s reference comes from them when it has one.</source>
        <translation>这些文件夹（位于所扫描的文件夹内）中的文件不会被标记、移动或删除；组内若有这样的文件，参照文件就从中选出。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="89"/>
        <source>Reference folders</source>
        <translation>参照文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="89"/>
        <source>Choose a reference folder</source>
        <translation>选择参照文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="97"/>
        <source>These folders (inside the folder you scan) and what they hold are not read.</source>
        <translation>这些文件夹（位于所扫描的文件夹内）及其中的内容不会被读取。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="99"/>
        <source>Excluded folders</source>
        <translation>排除的文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/folder_lists.py" line="99"/>
        <source>Choose a folder to leave out</source>
        <translation>选择要排除的文件夹</translation>
    </message>
</context>
<context>
    <name>GroupsModel</name>
    <message>
        <location filename="../../simdup_gui/ui/models.py" line="290"/>
        <source>The copy kept has short lines a copy lacks ({0} lines, {1} characters): a header, a notice or an ad may still be in it. Compare them, or keep another.</source>
        <translation>保留的版本有副本没有的短行（{0} 行，{1} 字）：可能仍带页眉、声明或广告。请对比，或改留另一份。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/models.py" line="303"/>
        <source>contained</source>
        <translation>包含</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/models.py" line="312"/>
        <source>In a reference folder: never marked, moved or trashed</source>
        <translation>位于参照文件夹中：不会被标记、移动或删除</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/models.py" line="315"/>
        <source>Most of one text lies inside the other: a cut copy, or one wrapped in more text. Similar as a whole only {0}.</source>
        <translation>一篇的大部分内容包含在另一篇中：截断的转载，或被更多内容包裹的副本。整体相似度仅为 {0}。</translation>
    </message>
</context>
<context>
    <name>GroupsPanel</name>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="114"/>
        <source>Duplicates only</source>
        <translation>只看副本</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="115"/>
        <source>Groups</source>
        <translation>分组</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="116"/>
        <source>Problems ({0})</source>
        <translation>问题（{0}）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="120"/>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="130"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="121"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="125"/>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="127"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="124"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="126"/>
        <source>Encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="123"/>
        <source>Distance</source>
        <translation>距离</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="111"/>
        <source>No duplicates left.

Every file of this folder is unique at this threshold.</source>
        <translation>没有重复了。

在这个阈值下，这个文件夹里的每个文件都是唯一的。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="113"/>
        <source>Filter by path or title…</source>
        <translation>按路径或标题筛选…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="122"/>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/groups_panel.py" line="130"/>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
</context>
<context>
    <name>LibraryActions</name>
    <message>
        <location filename="../../simdup_gui/ui/library_actions.py" line="49"/>
        <source>Choose a library</source>
        <translation>选择文章库</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_actions.py" line="51"/>
        <source>Choose a library, or type a new folder&apos;s name to make one</source>
        <translation>选择文章库；输入新文件夹的名称即可新建一个</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_actions.py" line="74"/>
        <source>Choose a folder of new articles</source>
        <translation>选择新文章所在的文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_actions.py" line="86"/>
        <source>Choose an article to check</source>
        <translation>选择要检查的文章</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_actions.py" line="97"/>
        <source>Choose a folder of articles to add</source>
        <translation>选择要加入的文章文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_actions.py" line="118"/>
        <source>Cancelled: the library is as it was.</source>
        <translation>已取消：文章库保持原样。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_actions.py" line="120"/>
        <source>{0} new, {1} changed, {2} unchanged, {3} gone, {4} unreadable</source>
        <translation>新增 {0}，变更 {1}，未变 {2}，已消失 {3}，无法读取 {4}</translation>
    </message>
</context>
<context>
    <name>LibraryStatsDialog</name>
    <message>
        <location filename="../../simdup_gui/ui/library_dialogs.py" line="50"/>
        <source>Library statistics</source>
        <translation>文章库统计</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_dialogs.py" line="52"/>
        <source>Library: {0}</source>
        <translation>文章库：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_dialogs.py" line="53"/>
        <source>{0} articles ({1})</source>
        <translation>{0} 篇文章（{1}）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_dialogs.py" line="54"/>
        <source>{0} imported fingerprints</source>
        <translation>{0} 个导入的指纹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_dialogs.py" line="55"/>
        <source>{0} near-duplicate groups among the articles</source>
        <translation>文章中有 {0} 组近似重复</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_dialogs.py" line="56"/>
        <source>Encodings: {0}</source>
        <translation>编码：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_dialogs.py" line="59"/>
        <source>Languages: {0}</source>
        <translation>语言：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_dialogs.py" line="62"/>
        <source>Last update: {0}</source>
        <translation>最后更新：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/library_dialogs.py" line="63"/>
        <source>Pairs of fingerprints within 8 bits, by distance:</source>
        <translation>8 位以内的指纹对，按距离：</translation>
    </message>
</context>
<context>
    <name>ListDialog</name>
    <message>
        <location filename="../../simdup_gui/ui/list_dialog.py" line="46"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/list_dialog.py" line="49"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/list_dialog.py" line="51"/>
        <source>Remove all</source>
        <translation>全部移除</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../simdup_gui/ui/main_window.py" line="79"/>
        <source>Not-duplicates list not used: {0}</source>
        <translation>未使用“非重复”列表：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/main_window.py" line="224"/>
        <source>{0} file is marked and the marks are not saved. Quit anyway?</source>
        <translation>已标记 {0} 个文件，标记尚未保存。仍要退出吗？</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/main_window.py" line="225"/>
        <source>{0} files are marked and the marks are not saved. Quit anyway?</source>
        <translation>已标记 {0} 个文件，标记尚未保存。仍要退出吗？</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/main_window.py" line="246"/>
        <source>simdup — near-duplicate articles</source>
        <translation>simdup — 相似文章查重</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/main_window.py" line="256"/>
        <source>Duplicate groups</source>
        <translation>重复分组</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/main_window.py" line="257"/>
        <source>Copied passages (reuse)</source>
        <translation>复制段落（查重）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/main_window.py" line="278"/>
        <source>Regrouping…</source>
        <translation>正在重新分组…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/main_window.py" line="398"/>
        <source>(cannot show this file: {0})</source>
        <translation>（无法显示此文件：{0}）</translation>
    </message>
</context>
<context>
    <name>MemberActions</name>
    <message>
        <location filename="../../simdup_gui/ui/member_actions.py" line="69"/>
        <source>The pair is kept apart until the app closes: {0}</source>
        <translation>在关闭程序之前，这两个文件保持分开：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/member_actions.py" line="83"/>
        <source>{0} group keeps another file now</source>
        <translation>{0} 组现在保留了另一个文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/member_actions.py" line="84"/>
        <source>{0} groups keep another file now</source>
        <translation>{0} 组现在保留了另一个文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/member_actions.py" line="120"/>
        <source>Mark copies</source>
        <translation>标记副本</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/member_actions.py" line="120"/>
        <source>Mark the copies whose path contains:</source>
        <translation>标记路径包含以下文字的副本：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/member_actions.py" line="125"/>
        <source>{0} more copies marked</source>
        <translation>又标记了 {0} 个副本</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/member_actions.py" line="143"/>
        <source>The file name is not valid UTF-8: showing its folder.</source>
        <translation>文件名不是有效的 UTF-8：改为显示所在文件夹。</translation>
    </message>
</context>
<context>
    <name>ResultFiles</name>
    <message>
        <location filename="../../simdup_gui/ui/result_files.py" line="52"/>
        <location filename="../../simdup_gui/ui/result_files.py" line="64"/>
        <source>simdup results</source>
        <translation>simdup 结果</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/result_files.py" line="59"/>
        <source>Save the results</source>
        <translation>保存结果</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/result_files.py" line="65"/>
        <source>Open saved results</source>
        <translation>打开已保存的结果</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/result_files.py" line="75"/>
        <source>Opened {0}</source>
        <translation>已打开 {0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/result_files.py" line="79"/>
        <source>Export CSV report</source>
        <translation>导出 CSV 报告</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/result_files.py" line="86"/>
        <source>Export HTML report</source>
        <translation>导出 HTML 报告</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/result_files.py" line="94"/>
        <source>Export the reuse report</source>
        <translation>导出查重报告</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/result_files.py" line="134"/>
        <source>Writing {0}…</source>
        <translation>正在写入 {0}…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/result_files.py" line="141"/>
        <source>Report written to {0}</source>
        <translation>报告已写入 {0}</translation>
    </message>
</context>
<context>
    <name>ReusePanel</name>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="275"/>
        <source>Sources an article copied at least</source>
        <translation>列出文章复制比不低于</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="276"/>
        <source>Of the article&apos;s characters, whitespace left out</source>
        <translation>占文章字符（不计空白）的比例</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="285"/>
        <source>Leave out quotations</source>
        <translation>去除引用</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="287"/>
        <source>Text in quotation marks (「」, “”, &quot;&quot;) is not counted as copied</source>
        <translation>引号（「」、“”、&quot;&quot;）内的文字不计为复制</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="295"/>
        <source>Export HTML…</source>
        <translation>导出 HTML…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="296"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="299"/>
        <source>Article</source>
        <translation>文章</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="301"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="391"/>
        <source>(your own) {0}</source>
        <translation>（本人）{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="300"/>
        <source>Copied</source>
        <translation>复制比</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="277"/>
        <source>in passages of at least</source>
        <translation>，连续相同至少</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="278"/>
        <source> words</source>
        <translation> 字</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="281"/>
        <source>The shortest copied passage counted, in words or Chinese characters; a source needs twice as many copied</source>
        <translation>计入的最短复制片段（汉字或英文单词数）；来源须被复制其两倍以上</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="291"/>
        <source>copied word for word</source>
        <translation>逐字复制</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="293"/>
        <source>reworded or retold</source>
        <translation>改写或转述</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="302"/>
        <source>Most from</source>
        <translation>最大来源</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="303"/>
        <source>Sources</source>
        <translation>来源数</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="307"/>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="535"/>
        <source>Shown after a scan.</source>
        <translation>扫描后显示。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="359"/>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="360"/>
        <source>Finding copied passages…</source>
        <translation>正在查找复制段落…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="379"/>
        <source>No article copied {0:g} % or more of its text from another.</source>
        <translation>没有文章从其他文章复制 {0:g}% 或更多的文字。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="408"/>
        <source>also in {0}</source>
        <translation>也见于 {0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="418"/>
        <source>Copied in all: {0:.1f}%; without cited text: {1:.1f}%; without your own articles: {2:.1f}%</source>
        <translation>总文字复制比：{0:.1f}%；去除引用文献复制比：{1:.1f}%；去除本人已发表文献复制比：{2:.1f}%</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="436"/>
        <source>{0:.1f}% of it here</source>
        <translation>其中 {0:.1f}% 在此文中</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="470"/>
        <source>Reading the texts…</source>
        <translation>正在读取全文…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="501"/>
        <source>{0:.1f}% of this article was copied, most from the source on the right (passages from it: {1}, the longest {2} characters).</source>
        <translation>本文总文字复制比 {0:.1f}%，最大来源见右侧（其中 {1} 段，最长 {2} 字）。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="504"/>
        <source>Without cited text: {0:.1f}%; without your own articles: {1:.1f}%.</source>
        <translation>去除引用文献复制比 {0:.1f}%，去除本人已发表文献复制比 {1:.1f}%。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="512"/>
        <source>{0:.1f}% of this article was copied from the source on the right (passages: {1}, the longest {2} characters); {3:.1f}% of the source is in it.</source>
        <translation>本文有 {0:.1f}% 复制自右侧来源，共 {1} 段（最长 {2} 字）；来源的 {3:.1f}% 出现在本文中。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="522"/>
        <source>Also in (copied from it too): {0}.</source>
        <translation>也见于（同样复制自该来源）：{0}。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="527"/>
        <source>(cannot show this file: {0})</source>
        <translation>（无法显示此文件：{0}）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/reuse_panel.py" line="527"/>
        <source>not at hand</source>
        <translation>文件不在原处</translation>
    </message>
</context>
<context>
    <name>Scans</name>
    <message>
        <location filename="../../simdup_gui/ui/scans.py" line="62"/>
        <source>Choose a folder of articles</source>
        <translation>选择文章所在的文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/scans.py" line="113"/>
        <source>Not a folder: {0}</source>
        <translation>不是文件夹：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/scans.py" line="130"/>
        <source>Scanning {0}…</source>
        <translation>正在扫描 {0}…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/scans.py" line="155"/>
        <source>Scan failed: {0}</source>
        <translation>扫描失败：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/scans.py" line="157"/>
        <source>{0}

The details are in the log: {1}</source>
        <translation>{0}

详细信息见日志：{1}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="123"/>
        <source>Words (jieba for Chinese)</source>
        <translation>词（中文用 jieba 分词）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="124"/>
        <source>Single characters</source>
        <translation>单个字符</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="127"/>
        <source>Term frequency, 1.5th power (best measured)</source>
        <translation>词频的 1.5 次方（实测最佳）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="128"/>
        <source>Term frequency</source>
        <translation>词频</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="129"/>
        <source>TF-IDF over the folder</source>
        <translation>按文件夹计算 TF-IDF</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="131"/>
        <source>Remove site templates from HTML pages</source>
        <translation>去除 HTML 页面中的网站模板</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="136"/>
        <source>simdup&apos;s combination (most accurate)</source>
        <translation>simdup 组合方法（最准确）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="139"/>
        <source>Longest sentences</source>
        <translation>最长句子</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="140"/>
        <source>Pinyin initials (letter frequencies)</source>
        <translation>拼音首字母（字母频率）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="151"/>
        <source>from the similarity floor</source>
        <translation>由相似度下限决定</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="169"/>
        <source>File types:</source>
        <translation>文件类型：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="170"/>
        <source>Minimum text length (characters):</source>
        <translation>最短文本长度（字符）：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="175"/>
        <source>Longest sentences hashed:</source>
        <translation>取最长句子数：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="176"/>
        <source>Sentences two articles share:</source>
        <translation>两篇文章须共有的句子数：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="137"/>
        <source>Word weights alone (Simhash)</source>
        <translation>仅按词的权重（Simhash）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="138"/>
        <source>Shared word runs (MinHash with LSH bands)</source>
        <translation>共有的词串（MinHash 加 LSH 分段）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="172"/>
        <source>How articles are compared:</source>
        <translation>文章的比较方式：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="173"/>
        <source>Text cut into (tokenizer):</source>
        <translation>文字切分方式（分词）：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="174"/>
        <source>Repeated words count (weighting):</source>
        <translation>重复词的分量（权重）：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="177"/>
        <source>How widely to look (MinHash LSH bands):</source>
        <translation>查找范围（MinHash LSH 分段数）：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="178"/>
        <source>How close to ask (MinHash rows per band):</source>
        <translation>要求的接近程度（MinHash 每段行数）：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="180"/>
        <source>Scan settings</source>
        <translation>扫描设置</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="188"/>
        <source>Which files are read, by their ending, separated by spaces (.txt .md .html …). Other files are counted, not read.</source>
        <translation>按文件扩展名决定读取哪些文件，用空格分隔（.txt .md .html …）。其他文件只计数，不读取。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="192"/>
        <source>Texts shorter than this are never put in a group: a short notice or a caption says too little to be called a copy. Changing it regroups at once.</source>
        <translation>短于此长度的文字不会归入任何组：一则简短的启事或图片说明不足以判断是否为副本。修改后立即重新分组。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="196"/>
        <source>Leave out a web page&apos;s menus, sidebars and footers (what the folder&apos;s pages repeat), so that two pages are compared by their articles.</source>
        <translation>略去网页的菜单、侧栏和页脚（文件夹中各网页重复的部分），只比较网页中的文章。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="200"/>
        <source>How articles are compared. The first is the most accurate; the others are for comparison or special cases (see the documentation).</source>
        <translation>文章的比较方式。第一种最准确；其余用于对比或特殊情况（见文档）。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="204"/>
        <source>How a text is cut into pieces before it is compared: words (Chinese cut with jieba) or single characters.</source>
        <translation>比较前如何切分文字：按词（中文用 jieba 分词）或按单个字符。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="208"/>
        <source>How much a repeated word counts. The first was the most accurate measured.</source>
        <translation>重复出现的词占多大分量。第一种是测得最准确的。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="211"/>
        <source>For the longest-sentences method: how many of each article&apos;s longest sentences are compared.</source>
        <translation>用于“最长句子”方法：比较每篇文章中最长的几个句子。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="215"/>
        <source>For the longest-sentences method: how many of those sentences two articles must share to be copies.</source>
        <translation>用于“最长句子”方法：两篇文章至少要有几个这样的句子相同才算副本。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="219"/>
        <source>For MinHash: how many bands the signature is cut into (more finds looser copies, more slowly). 0 sets it from the similarity floor.</source>
        <translation>用于 MinHash：签名分成多少段（越多越能找到改动较大的副本，但更慢）。0 表示按相似度下限自动设定。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/settings_dialog.py" line="223"/>
        <source>For MinHash: rows per band (more asks for closer copies). 0 sets it from the similarity floor.</source>
        <translation>用于 MinHash：每段的行数（越多要求副本越接近）。0 表示按相似度下限自动设定。</translation>
    </message>
</context>
<context>
    <name>StartPage</name>
    <message>
        <location filename="../../simdup_gui/ui/start_page.py" line="51"/>
        <source>Find reposted, lightly edited and pirated copies among a folder of articles (.txt, .html, .md; UTF-8, GBK, Big5 …). Choose a folder or drop one here; simdup groups the near-duplicates so you can compare them side by side, mark the copies and export a report.</source>
        <translation>在一个文件夹的文章中（.txt、.html、.md；UTF-8、GBK、Big5 等）找出转载、轻度改写和盗版的副本。选择一个文件夹或把文件夹拖到这里；simdup 会把相似文章分组，供您并排对比、标记副本并导出报告。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/start_page.py" line="57"/>
        <source>Choose folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/start_page.py" line="58"/>
        <source>Try the sample folder</source>
        <translation>试用示例文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/start_page.py" line="59"/>
        <source>Check against a library…</source>
        <translation>用文章库检查…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/start_page.py" line="60"/>
        <source>Recent folders:</source>
        <translation>最近的文件夹：</translation>
    </message>
</context>
<context>
    <name>StatusLine</name>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="62"/>
        <source>Finding files</source>
        <translation>查找文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="63"/>
        <source>Preparing</source>
        <translation>准备中</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="65"/>
        <source>Preparing fast kernels, once on this machine (about half a minute)</source>
        <translation>正在准备快速内核（本机只需一次，约半分钟）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="67"/>
        <source>Reading</source>
        <translation>读取</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="68"/>
        <source>Indexing</source>
        <translation>建立索引</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="69"/>
        <source>Grouping</source>
        <translation>分组</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="70"/>
        <source>Waiting for another writer of the library</source>
        <translation>正在等待文章库的另一个写入者</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="71"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="83"/>
        <source>{0}: {1} of {2} files · {3:.0f} files/s · about {4:.0f} s left · {5}</source>
        <translation>{0}：{1}/{2} 个文件 · 每秒 {3:.0f} 个 · 约剩 {4:.0f} 秒 · {5}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="96"/>
        <source>{0} duplicate</source>
        <translation>{0} 个副本</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="96"/>
        <source>{0} duplicates</source>
        <translation>{0} 个副本</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="97"/>
        <source>{0} problem</source>
        <translation>{0} 个问题</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="97"/>
        <source>{0} problems</source>
        <translation>{0} 个问题</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="98"/>
        <source>{0:.1f} s</source>
        <translation>{0:.1f} 秒</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="105"/>
        <source>{0} file of another type not read</source>
        <translation>{0} 个其他类型的文件未读取</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="106"/>
        <source>{0} files of other types not read</source>
        <translation>{0} 个其他类型的文件未读取</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="109"/>
        <source>checked against the library {0}</source>
        <translation>已与文章库 {0} 对照</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="111"/>
        <source>cancelled: partial results</source>
        <translation>已取消：部分结果</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="116"/>
        <source>{0} marked ({1})</source>
        <translation>已标记 {0} 个（{1}）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="118"/>
        <source>{0} more marked, no copies at this threshold</source>
        <translation>另有 {0} 个已标记，在此阈值下不是副本</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="122"/>
        <source>Marks belong to files: a marked file that is no copy at the thresholds shown keeps its mark, and shows it again when it is one. Only the copies shown are moved or trashed.</source>
        <translation>标记属于文件：已标记的文件在当前阈值下不是副本时，标记仍然保留，再成为副本时重新显示。只有显示出的副本会被移动或删除。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="135"/>
        <source>{0} reference folder</source>
        <translation>{0} 个参照文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="135"/>
        <source>{0} reference folders</source>
        <translation>{0} 个参照文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="139"/>
        <source>{0} pair kept apart</source>
        <translation>{0} 对保持分开</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="139"/>
        <source>{0} pairs kept apart</source>
        <translation>{0} 对保持分开</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="144"/>
        <source>Files in reference folders are never marked, moved or trashed; pairs said to be not duplicates never share a group (Actions menu: the lists).</source>
        <translation>参照文件夹中的文件不会被标记、移动或删除；标为“非重复”的文件对永远不会分到同一组（在“操作”菜单中管理这些列表）。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="153"/>
        <source>{0} file</source>
        <translation>{0} 个文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="153"/>
        <source>{0} files</source>
        <translation>{0} 个文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="157"/>
        <source>{0} group</source>
        <translation>{0} 组</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/status_line.py" line="157"/>
        <source>{0} groups</source>
        <translation>{0} 组</translation>
    </message>
</context>
<context>
    <name>ThresholdBar</name>
    <message>
        <location filename="../../simdup_gui/ui/threshold_bar.py" line="101"/>
        <source>Min. text similarity:</source>
        <translation>最低文本相似度：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/threshold_bar.py" line="100"/>
        <source>Copies may differ:</source>
        <translation>副本可相差：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/threshold_bar.py" line="104"/>
        <source>How far apart two copies&apos; fingerprints may be: how many of their 64 bits differ. The default, 8, groups files that share most of their text even when an added notice or template moved their fingerprints apart; the text similarity below decides. 0 groups identical texts only.</source>
        <translation>两个副本的指纹最多可以相差多远：64 位中有几位不同。默认值 8：即使加了声明或模板使指纹相差较远，大部分文字相同的文件也会归为一组，由旁边的文本相似度决定。0 表示只把文字完全相同的文件归为一组。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/threshold_bar.py" line="110"/>
        <source>How much of their text (runs of 5 characters) two files must share to be grouped, whatever their fingerprints say. With another fingerprint method (Settings), the similarity that method measures.</source>
        <translation>两个文件至少要共有多少文本（连续 5 个字符）才归为一组，不论指纹怎么说。选用其他指纹方法（设置）时，是该方法自己度量的相似度。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/threshold_bar.py" line="115"/>
        <source>Remembered from your last session.</source>
        <translation>沿用上次会话的设置。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/threshold_bar.py" line="123"/>
        <source>the default: the text similarity decides</source>
        <translation>默认：由文本相似度决定</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/threshold_bar.py" line="124"/>
        <source>identical</source>
        <translation>完全相同</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/threshold_bar.py" line="125"/>
        <source>strict</source>
        <translation>严格</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/threshold_bar.py" line="126"/>
        <source>normal</source>
        <translation>一般</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/ui/threshold_bar.py" line="127"/>
        <source>loose</source>
        <translation>宽松</translation>
    </message>
</context>
</TS>
